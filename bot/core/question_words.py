"""The words of the question path: which carry meaning (Spanish and English stop words and the words a question
is wrapped in) and their stems (Spanish Snowball; English Snowball, marked apart). Nothing here names a field's
concepts: what a member's word means in a glossary is read from that glossary (its English names and aliases, as
English stems) and from the sentence encoder's cross-lingual space (bot/core/questions.py, `WordSpace`). Read by
bot/core/questions.py."""

from __future__ import annotations

import Stemmer

from bot.core.normalize import normalize

# Words that carry no meaning on their own: the Snowball project's Spanish and English stop word lists (the
# stemmers' own companions, folded as `normalize` leaves them), then the words a question is wrapped in, in
# either language and in chat style ("cómo se llama lo de…", "what's the thing", "q", "pa").
_SNOWBALL_SPANISH = """
de la que el en y a los del se las por un para con no una su al lo como mas pero sus le ya o este si porque esta
entre cuando muy sin sobre tambien me hasta hay donde quien desde todo nos durante todos uno les ni contra otros
ese eso ante ellos e esto mi antes algunos que unos yo otro otras otra el tanto esa estos mucho quienes nada
muchos cual poco ella estar estas algunas algo nosotros mi mis tu te ti tu tus ellas nosotras vosotros
vosotras os mio mia mios mias tuyo tuya tuyos tuyas suyo suya suyos suyas nuestro nuestra nuestros nuestras
vuestro vuestra vuestros vuestras esos esas estoy estas esta estamos estais estan este estes estemos esteis
esten estare estaras estara estaremos estareis estaran estaria estarias estariamos estariais estarian estaba
estabas estabamos estabais estaban estuve estuviste estuvo estuvimos estuvisteis estuvieron estuviera
estuvieras estuvieramos estuvierais estuvieran estuviese estuvieses estuviesemos estuvieseis estuviesen
estando estado estada estados estadas estad he has ha hemos habeis han haya hayas hayamos hayais hayan habre
habras habra habremos habreis habran habria habrias habriamos habriais habrian habia habias habiamos habiais
habian hube hubiste hubo hubimos hubisteis hubieron hubiera hubieras hubieramos hubierais hubieran hubiese
hubieses hubiesemos hubieseis hubiesen habiendo habido habida habidos habidas soy eres es somos sois son sea
seas seamos seais sean sere seras sera seremos sereis seran seria serias seriamos seriais serian era eras
eramos erais eran fui fuiste fue fuimos fuisteis fueron fuera fueras fueramos fuerais fueran fuese fueses
fuesemos fueseis fuesen siendo sido tengo tienes tiene tenemos teneis tienen tenga tengas tengamos tengais
tengan tendre tendras tendra tendremos tendreis tendran tendria tendrias tendriamos tendriais tendrian tenia
tenias teniamos teniais tenian tuve tuviste tuvo tuvimos tuvisteis tuvieron tuviera tuvieras tuvieramos
tuvierais tuvieran tuviese tuvieses tuviesemos tuvieseis tuviesen teniendo tenido tenida tenidos tenidas tened
"""
_SNOWBALL_ENGLISH = """
i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself
it its itself they them their theirs themselves what which who whom this that these those am is are was were be
been being have has had having do does did doing would should could ought im youre hes shes its were theyre ive
youve weve theyve id youd hed shed wed theyd ill youll hell shell well theyll isnt arent wasnt werent hasnt
havent hadnt doesnt dont didnt wont wouldnt shant shouldnt cant cannot couldnt mustnt lets thats whos whats
heres theres whens wheres whys hows a an the and but if or because as until while of at by for with about
against between into through during before after above below to from up down in out on off over under again
further then once here there when where why how all any both each few more most other some such no nor not only
own same so than too very s t can will just don should now
"""
_WRAPPERS = """
al algun alguna alguno aqui asi aun bajo bien cada casi cosa coso cosas cual cuales decir dice dicen exactamente
hace hacen hacer llama llaman llamo mismo movida necesito nombre oye pa pal porq pueden puede q k xq d tb tmb osea
quiero recomiendan mejor alguien sirve funciona uso usar usa usan tal tipo verdad bro
get like thing stuff called name named call
"""
STOP_WORDS = frozenset(normalize(_SNOWBALL_SPANISH + _SNOWBALL_ENGLISH + _WRAPPERS).split())
_STEMMER = Stemmer.Stemmer("spanish")
_EN_STEMMER = Stemmer.Stemmer("english")
MAX_QUESTION = 300  # characters of a question that are read
ENGLISH = "~"  # marks an English stem, so that it never meets a Spanish one by chance


def content_words(text: str) -> list[str]:
    """The words of `text` that carry meaning, folded, each once, in order."""
    return list(dict.fromkeys(w for w in normalize(text).split() if w not in STOP_WORDS))


def stem(word: str) -> str:
    """A folded word's Spanish stem (the stem every field of a term is indexed by)."""
    return _STEMMER.stemWord(word)


def words(text: str) -> list[str]:
    """The question's or the term's words that carry meaning, folded and stemmed (Spanish)."""
    return _STEMMER.stemWords([w for w in normalize(text).split() if w not in STOP_WORDS])


def english_words(text: str) -> list[str]:
    """The same words stemmed as English (marked apart): an English name or alias meets an English question."""
    return [ENGLISH + w for w in _EN_STEMMER.stemWords([w for w in normalize(text).split() if w not in STOP_WORDS])]


def word_groups(text: str) -> tuple[tuple[str, ...], ...]:
    """The question's words that carry meaning, each as its Spanish stem followed by its English stem: a word
    counts once, through whichever of these a term has."""
    groups: dict[str, tuple[str, ...]] = {}
    for w in content_words(text):
        groups.setdefault(_STEMMER.stemWord(w), (_STEMMER.stemWord(w), ENGLISH + _EN_STEMMER.stemWord(w)))
    return tuple(groups.values())
