"""The chart's lettering: DejaVu Sans, the face matplotlib draws with, rasterised once (anti-aliased, hinted by
FreeType) at the three sizes chart.py uses, for Latin-1 and a few punctuation marks. Stored here as data, a
chart needs no font file, no FreeType and no imaging library at run time.

To regenerate (needs Pillow and the font, e.g. Debian's fonts-dejavu-core), from the repository's root:

    python -m bot.app.insights.chart_font /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
    ruff format bot/app/insights/chart_font.py

DejaVu Sans: Fonts are (c) Bitstream (see below). DejaVu changes are in public domain.

Copyright (c) 2003 by Bitstream, Inc. All Rights Reserved. Bitstream Vera is a trademark of Bitstream, Inc.

Permission is hereby granted, free of charge, to any person obtaining a copy of the fonts accompanying this license
("Fonts") and associated documentation files (the "Font Software"), to reproduce and distribute the Font Software,
including without limitation the rights to use, copy, merge, publish, distribute, and/or sell copies of the Font
Software, and to permit persons to whom the Font Software is furnished to do so, subject to the following
conditions:

The above copyright and trademark notices and this permission notice shall be included in all copies of one or more
of the Font Software typefaces.

The Font Software may be modified, altered, or added to, and in particular the designs of glyphs or characters in
the Fonts may be modified and additional glyphs or characters may be added to the Fonts, only if the fonts are
renamed to names not containing either the words "Bitstream" or the word "Vera".

This License becomes null and void to the extent applicable to Fonts or Font Software that has been modified and is
distributed under the "Bitstream Vera" names.

The Font Software may be sold as part of a larger software package but no copy of one or more of the Font Software
typefaces may be sold by itself.

THE FONT SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED
TO ANY WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT OF COPYRIGHT, PATENT,
TRADEMARK, OR OTHER RIGHT. IN NO EVENT SHALL BITSTREAM OR THE GNOME FOUNDATION BE LIABLE FOR ANY CLAIM, DAMAGES OR
OTHER LIABILITY, INCLUDING ANY GENERAL, SPECIAL, INDIRECT, INCIDENTAL, OR CONSEQUENTIAL DAMAGES, WHETHER IN AN ACTION
OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF THE USE OR INABILITY TO USE THE FONT SOFTWARE OR FROM OTHER
DEALINGS IN THE FONT SOFTWARE.

Except as contained in this notice, the names of Gnome, the Gnome Foundation, and Bitstream Inc., shall not be used
in advertising or otherwise to promote the sale, use or other dealings in this Font Software without prior written
authorization from the Gnome Foundation or Bitstream Inc., respectively. For further information, contact: fonts at
gnome dot org.
"""

from __future__ import annotations

import base64
import struct
import sys
import zlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

SIZES = (10, 11, 14)  # pixels per em: tick labels (7 pt at 100 dpi), axis label (8 pt), title (10 pt)
CHARACTERS = "".join(map(chr, [*range(0x20, 0x7F), *range(0xA0, 0x100)])) + "–—‘’“”…•€"
_FACE = struct.Struct(">BBBH")  # size, ascent, descent, glyph count
_GLYPH = struct.Struct(">HHbbBB")  # code point, advance × 64, left, top, width, height; then width × height bytes


@dataclass(frozen=True, slots=True)
class Glyph:
    advance: float  # pixels from this glyph's origin to the next one's
    left: int  # the bitmap's left edge, from the origin
    top: int  # the bitmap's top edge, from the baseline (negative: above it)
    width: int
    height: int
    alpha: bytes  # coverage 0–255, row after row


@dataclass(frozen=True, slots=True)
class Face:
    size: int
    ascent: int  # pixels above the baseline
    descent: int  # pixels below it
    glyphs: dict[str, Glyph]


@cache
def face(size: int) -> Face:
    """The face at one of SIZES, decoded on first use."""
    return _faces()[size]


@cache
def _faces() -> dict[int, Face]:
    data, at, faces = zlib.decompress(base64.b85decode("".join(_DATA))), 0, {}
    while at < len(data):
        size, ascent, descent, count = _FACE.unpack_from(data, at)
        at += _FACE.size
        glyphs = {}
        for _ in range(count):
            code, advance, left, top, width, height = _GLYPH.unpack_from(data, at)
            at += _GLYPH.size
            glyphs[chr(code)] = Glyph(advance / 64, left, top, width, height, data[at : at + width * height])
            at += width * height
        faces[size] = Face(size, ascent, descent, glyphs)
    return faces


def _rasterise(font_file: str) -> bytes:
    from PIL import Image, ImageDraw, ImageFont  # only to regenerate the data

    out = bytearray()
    for size in SIZES:
        font = ImageFont.truetype(font_file, size)
        ascent, descent = font.getmetrics()
        out += _FACE.pack(size, ascent, descent, len(CHARACTERS))
        for ch in CHARACTERS:
            left, top, right, bottom = font.getbbox(ch, anchor="ls")
            width, height = max(right - left, 0), max(bottom - top, 0)
            image = Image.new("L", (width, height))
            if width and height:
                ImageDraw.Draw(image).text((-left, -top), ch, font=font, fill=255, anchor="ls")
            advance = round(font.getlength(ch) * 64)
            out += _GLYPH.pack(ord(ch), advance, left, top, width, height) + image.tobytes()
    return bytes(out)


def _write(font_file: str) -> None:
    encoded = base64.b85encode(zlib.compress(_rasterise(font_file), 9)).decode("ascii")
    lines = [f'    "{encoded[i : i + 112]}"\n' for i in range(0, len(encoded), 112)]
    source = Path(__file__).read_text(encoding="utf-8")
    head = source[: source.index("_DATA = (\n")]
    Path(__file__).write_text(head + "_DATA = (\n" + "".join(lines) + ")\n", encoding="utf-8")


if __name__ == "__main__":
    _write(sys.argv[1])

_DATA = (
    "c-qZ92Urxz(lr}kcL{<bf}&zhoH^$l&K%F2&KxnEXVx=k@x+`k>**;fW>gRZW;{^=QBV+2f@GHD{8imE3#f1y-h2OiFkRErU0t23tE#JKbvh+@gF"
    "V~>Py&<^1V~jG!`y{n_@6lkVEiOt7d@92%0sH!SaZMn0m!<2@hYRRfmDq#LMxl~_?==rj5pQ;I4;t)6QIi++mir|*`sI*a8tFbDyFhJ2i^jPWrZz"
    "}YNP?M8-`DdqD9fB_={>o0W^=duC)Tt4!P*t2;YwRb7qy4gp`Zc2;*BQrx*&UI%D%&AASKiSQ=pH3OgU@GX-A_L#WUx1wsY9KlIyG$1|2PK*za#o"
    "ot>WVD6^wx8BAVp-r{G<OaPhFC?&9l)U$09;KbXsldVl7`DAvh#oa(TU@CCe!6b^poI6F-B2^Kk#4xy7hr5~%IOBL%RvQjg;XUr81TOwS4Btzy-E"
    "vaR~7L42!JP6VD<)}BvL>jJi#(3p59mDX?54Irxx}HsCEHB5sitWjaXO}pBD@O-8B_JWuZCs(u}4~O=lRdf3@D&c-^aY{PELXs$%G+`dfKS&M=ns"
    "PPbg&JK*3El?r(NleHVbPY@27D&-PUv^SJcm8B3M)&{D9AC55W(p_~y`AC4~8v*`o3Ghe-b@l)(>kM!Y-$HfP^~TUPAbPc+eb>_ZezzuG03)|_{~"
    "L$RaRzVIy~p_O(BVb&S_RaQazu#Kdr&s7`wgs+Bh=(MRCB`LErD8#Y|4i;rWAJ_Xr!+O5Y{aRFg{8R)|#4NAk>n|7#tkEQK8&wXZsN81?xKv05Ze"
    "_G^z@p7+Ystfg-Nc)GMRk@6<wVDF<lo+`!lCC*i&O#QHa&_;$eiBEm~UqW%q#?scRbQKFa#5WyNSGVU!=A^h~R1wF2HMA+eF%f{lzH`4*?N;&M##"
    "EY%r_GSx!3b9(E`o3GTXUXbG)wL^JRDRVpD|SO8-z0ZCsK;|SQ0X))6ahAP?{tiipKnbwH-P5f8Y)y9UYID8%5V%%a5XC&Tfyv<qe*aivs1lcOon"
    "(tRn@<QiSwc+0eE*7)<!0|7lQ^;j+K!S^Ptr~ww9M#wx#<j!6_zm_Z}*0*CGH_r}**^k>T43pdpTpbfp@6YiA8kgd4GFqa4wEtTo1wo2D_M2#aCo"
    "T7ucYQ&%Px1qgk@lbR1Y?LM(611*Q2Z)wQg1oNe9)Y(Qhzdn7IuclHtR~J=b&&FN$-<(&T7qJ7I+_>|;Tk|UbTwUytBVRM27fr(UVy16390BWB0o"
    "3v-3lNBT&4cAsHq^(>6$_DNVW&A9i%GtXlN%a8A7pJ@@A4m@^e)EIohnjqDJ+Y>eZgvavmS$0uk1^_sC~n#{$f~};O%<1C8!=7W?aj_0XEj7oe8X"
    "QIxhNL9Rykk=OEP>N8&G;#AD&|RC-_Ltl|Ndy5eV;It0`aSpA#OYZtz_S><8}3?^@Ymcn_;s1n6=-zK2agKET09=HKUiixf0Nm28i2?e$ERv4N2W"
    ";{SE;TkKk=)tha-4^O6D{Tu78Qk^(qj1zg7D!LhJ4_iKwaWrp3(>@p5Rcw}u`yvcsdsBVg}D60^AJ)kSy+la>+0NCN5rHBEWsMK5uDk?rrzAjQ%i"
    "S>ar`XiIJ6ZU4LKY>eIE!pV%Qzp39*c8+8qe}aIOj%JzZ7IyzP3qLacsA#3=r38pYll)sDmk>cHDLkEQ_ah1aZ(gl+l?_$*{Y@eA=%2p!-Gtt!+H"
    "pZ&qla79eTRfXU${cGZJ$$JcoLpow89AMpx(Y+s)z+l3Sf|zL886Bq0jIPhBT<c{+mXjC|rL6d(9dr^#vNrpyZN6})$}EA-ii(h`#a7-2V3KeIRI"
    "&F>VeoANW)FeO;|VB!xx~e81i<C3gE%lG!Gr^NApl*3AU+^BV^b_tCHPjLAhw$;3*dTF7Sz4-8wGIW9t%pPE`+Xvp7+`DsIXm@pnkf<%69i9X!{T"
    "m8@(&f$K<Ux?dVzkuDsFnC57lclsFL`j_IMBut*vuN!O^QblbMzUAtuq#vr5p!YJv^O4Lw^;kye-C0>zBtSFV(jy<a*D&Tu8@eDxm<5A)%Q--3}i"
    "&_9Zge%e<O!g{G$hDicvtY9mYh2#~^i=#tZ&t8FfQprWbR_f?HZv}~EF$VpljcDcEXH-Kd6(7(=;X3*DTy&KZeP1OcINBP8vhZJc)ber5|)eDNE$"
    "AbA-4j@HGE9xFYGP&5~=oqw17<iVo>ls20KQ9->=$g;Z>pL?WCYF0DU-vx<pIr?@ql=W8hy!9a<Ec-9!d82M!Fu)jP0YIF3uW;>wuYFCwwBUlg-Q"
    "+*^%H;T0DYCnmK&51N~IaPg>O5~FUp=1@87Fo5fgmUJ97x-Yi)f_c}?%N^Z59C_@0TyP%+mc+(S#5r}~C1UH#$te1wC=~a%fnUxmuMtIuyjY2C#h"
    ">tQ_SEqf3SoOE!G?Lz_nZLQe`-TN-f-~ONSvM56;RNxY$1PQ$*pgl7|a@It6N?T*Pj>c$l9GPRztSYz13+INm(9dc(=Vt%bBSM5y6EAaSROLa$#9"
    "97Rq9Ma{b5mFp$e%Bx8}RMKTvWQgRuLWHFM-U{^gD#BpkvSRR<`KYKq|79dp@qSyksYhB}~Naq5qRzojy__u3_&|Cy#g}fZHTG_x*lwkF0jp`Dux"
    "z?xD|Au9lumaMJ)F6ssW9ZrLaY0MBcu}m~|6Jixe)WsoO}ucWJ`BhCpf}Rk_^_g~-+lMRT`6Ld-o|9r7MlPRps(Acx6-ZHV&l6%?rIVERT#>!PYC"
    "`P3=RA%Bei2$uQdp$Orp}{Hy95iIChGk?wI4g{KMlNj?MllUhJXcxMkQhj?H}RiawCyVWhB%V}BigSX0ltxNiNFG1LmX8hDi?>|<YLVn2_9*Vrc-"
    "=oxbX?qRFEWrFNXCL?D5AB|L`<D6ebxSRXf+1_Ji&X-_{KRBG$e&6cgEk?`+7?XRe?27X+w@GcTJNT>3KbUY1#gCcG?=TilgI=kz@RRxgf$V=U4o"
    "-`Dl@1IEc$%F5&jD)Qg6eStP|p;m<wA!KH1Mo!<1^CL0&F6~>?o!VwgJYM@@@eW40L?)4<;%mL%L3F^Yn21sdjH7JA;kBiK)j4%a-?mYPDuCs6tp"
    "tYX*WUG#dnySX-+9r5z?qV{c9b>IF@nl`7&fXdDWA<5xC)TGHBMFwB1!vsnp_ykGJjY1wNHQ>32Ed-P-<XHx}ZNLM4hyA$ke(pxKlX|)U;$2m>t%"
    "o5y86(<Znh_lLko7Vx9T@@3LOcyi!TEKKjCmVnj>PhtPE{d))Y!ZSi$3eX-{Ki|Qq6ffCM}Dt>_t}n?Va1BxafC(j_mQp{!W>Gqa2o3W<BB~Kj9!"
    "|-iB|o$pn&$*b!6Pab5eSKSD276?l>Jbc|nKW6|RE!Wy=k{!LRP#X?>p+z}R0ZdwJq|m0<zFGqEU+)xoD=ktb!L$7Rp<i0J{UzOZop-$S9>C8g>8"
    "dN7NnGM@cAYD*(6pQ%j!HL#)2q`3h0UXKgX+W03)@Apar)J|s;dA87v8fH39J5(;!t4e^;YCAAqgN$r3#`(Y;RA}@@*aB+z6dZunZ_zw&OgfWd5;"
    "1Cz<hpoQ&Sy-!DbuB@-y*eIeN}G<bCL1tl{#>@$?I>PRK}HHlDmW{jIwS_&2H*R3!mzNh-Ei@NGo^O?UZIRrMdFDAz3CQy@p=`3=0VuZaVa5a4b~"
    "EEpETbXDri2GW+Zm1W1?6K6H_}hs-|N%|QE*vNTd;ff6--kco2g+s>%Km3T%ms<59Ik;d}~<0%bd-7l-Yv!gvNp>R~mdYz#5ZE6)Ja%WR{VJI=Xx"
    "o|+v!31nvGp#lk54ipA{zy1e+wx*bI9t==LW$zf@4dS{vJ<LEmTTZ3&(Ux<j*s;)xvlA8bzkx2HqjNw6|Q7`2`|Fkj<a^8`ypBYmD(Jwj#u`_!_0"
    "P~(OyUsO)Edab*{jJOLgG)?siw(H@#hTkRy~m;)_bB*~5wz#Z*@{9N{Y!B-$iGey*cT*TZVs9f^xSVn;mj_8=>(0k^PIr`KH@El#h4qRdL0XT`~K"
    "2Jjn?`;F2Kv?|p97Ap8q<iNXk2dokJOQ=dpW?3<1E7<vDepHQISkhlpA@trgwhlorYyu9!F^NqnSD8(#P~dpiJwt)+C|4<0n@z7Ek#`(NQHDm9Qy"
    "X6RNr>0qQg|Y->eQJl#tvoGfw^K-OIDpabK6axoLhBHa>ErQivQY}u2NE`gw>$*DDI&E=cEl^PI}5<DafB~OO8Ly4WdiLpbDT^QL^Bq@~~PIhvvY"
    "2hNl@SzH0#P?@EAj+Jq$^UsTDF#!VU`Q1!eLj80qqTh-3uxK1}V=ByR61+y>+D{gspCRDtCD|AYv4Mmb2kq2;2GMSDG7sd8=AH^eM+E)_k4*S_1$"
    "1dG9pWe?SE67l)$V6wjE+EmMMoDKBGPb2jZ2>Ows`f&m0~+)H#w3Aczb^6dSm;K=MwmLo^g{V*Gfd8xx4M<M2|gW<m-%=!TcvbD-qzuGn=^KFcPn"
    "nTTDd_dBXn0xpz*~D1!uDCP|;0S0Ee_^Nu41wRyKnnOv0|c5iExjq;@lh;VOdWb_8VxneeXUADdtLISCtBY?H9n9;e~hAc#cYs~j8adyb7p0LO;o"
    "fMcW4kT2S<3B7O$!kM&nj9hsq<bvwkbwK5cbEwfjxN>P-_2O3WKxHAt7_qlrCuD2<ueI%X%4oFvDt-r=>oS@-D~5ar8ZShXY^(#tKXVRXt;#KPIr"
    "bgcZb(FF^!CBuf##-Mw>1f@S6s_8rG0u@Ckn2Q+ky8=X9XWzC)Rd?-$sDZdqm?6eHfabE=g!^p$N*jWa&)CTTrK4KY!~8Mv_^8sRT`$09%>GN$~;"
    "$7T0+%jt2(0Hv#q*C4k$^w5I)f(;D{lMv5+yNMqYuaE25TX@*aco98QxW_RS=MGh7I`rLP=-0F3!+I)TPds6P|KJ71jeeU~k1yYpS23wT;%@<5)4"
    "|o#wt{S-}dB~GEt{9(dl1Ds=-X=EJBtDWMQ7@(ju0*DXT6fJWJ17Jwq*o;(_Xc=hTz;na)i0ssrx()#S7G|cLJ*rYu>8u%pRts~{X;CXI`eByWd8"
    "_yNYP-Q8gH+WovVMV$?S=Y4>~RvegHmS8DH5yHy8c^_?{xZWDT}npMW;=DecZ?p>=-%-e)qMOXltz@dNNZmjsw$6Od{B1)%d9Y)5;aU~&INTgqF2"
    "hZO%5<A+M={E!YkYk%6eK<(#5)SJ26D`*3-{KsdYBbGO3bZD_r2Vl-{xY4?)_uQdaer0%i&cb%Lm(Y00#>jX3t-)9+(eE$#a&BmUAj`1x^|rnM84"
    "WD$`W<Lq$Y^@3T&nnXG=Vaj`?W*uz8%d=VY$f1dhKmS+4}rj4T7(P#n}w(2BY(qT#e2UBy42%r`{nk(?JnY&H7nk>!+}0S5X_^a$aQ3G5%+oVB-t"
    "s+t<(@cXMwWUzd-syFf4sVw7+2DlT+1HPD{7HSM*O4}`NdiR?l7%=bplcV;c788CQN)%@iPk?DNWbQZv_nqhVFmoHSxw`Tf*fjI^3yz{-qe6-4x3"
    "?gNJ<goQv9*6UjJ4`X1tWKCJy#La;P}b#k&z74OyJyQ%)77T`IqPz-7Lht{b0_&u!yPEMTR}LpHX8qnwGm)54Ktq*oQV;_DptdaSIAflUFREWn72"
    "*wos<t?-bC6h+?mgO@8x{+JdrinZ|yiKfB7P%eC;m`b;;QidFP8_mPC!Imn}f~!?{=z@jsd@fhrBOIRF-Cw7DjO7>*Cxys<SpUVdAy2|w_37O@rm"
    "a<^dOf2=gZetK1Zy#THJ{7N7XF8sJPYHaT_-WP1_UqO3v^4Qe?<5x9&W^e7$8-5FqLS;BkvKSW$ZFdNuTfa+7Wixo*7RPw0yvAG$ANQ+)y1Z?W3G"
    "&Q?Ej{qoen~#_CCd3WlM$uP;!!>FmoG`m*D$0S4y}dt{rcuFU$T^M#Ll@(a*mU{^Q9OR{V_Q_Z9d=H&-q@D<)ulcry{WAeZ<C@?Vj5A3TriXMgK`"
    "-mX{BkZ0#|+=gyGW-D<uY52;em)jiGRn&IOOE<Jf$Mbiv>1Wx^ETYhyu^QFuA*3-^d)m4N0=PzG|lyBgH>1%Sj9_5`cQ<#JKNDDtfa>j_Ua=x#ys"
    "eWW->%MlkC5H`Ml;~KvFiR``N;>Qd3C$r>O-@N-w$Ws7rC11=Iu<R8Ip1YVWdrwUryY)zEEV$EOIzusM@yqC!ly6ogig#rb)@8B%v(GpcYBY0aVe"
    "=+3$GU1tGX+S+>@3^szsdue$`>g5~%J6_N9f{%&u4d)l(ak_sNt1<$|6T$(irCWL+)p7XPF!T%TfE;kQ><>9bHEib)%yn27V{`XrO`zhRn$Cv{9r"
    "xNjgXH7fEAEXp`*UmPm(|1Z~&XPpOV^%pOL;z|pxnW-y+_M)<Gxn5-yT|lp8K3~VdgNa|ijWT<T!3y3hWNmw?n8yqY6)u2V1suBk4cWZ5wQ@Ma@H"
    "{n|!lqzZ!2|T94*|2n^nUSC+zLi<wdlzxz8#xxogb%=G7YeCP&7%lD;veAiloM;KW7YL1t*LJ<rKR>uhXbcC+-!%%2N$p4x3zT2rf7!x)RiC3!!y"
    "OJf!ookSesaPwTg#<fm1|6>in8cO9jpOZITPc724#Ob2Ke_O=z2SCnJ57B<J-D8tnCXGLnWO`NXRBs?Y3eq*8LNh{Zl$`)s#)qPN`J$JGL*d+|om"
    "3|zKYC(sGDKAIQ^fZPFaGiF*cyoWDy(<cZAVr0(a-lLb#RhZ1A@aHmC_if0Kf&NK0H6sqCZ?&x)2r^`d>W5yQsK8ax&x{JT<HvOwG(a4gB8Y&TLw"
    "z<gRG1a3*$~s*bI)nok}0oDd)UCTLqM}U%OS7V))xnoDaK@O9+8}^1Dv}UxRyS?r9uwkcuh=To?hGds^~B{0JE;)l72p%YId5=>+h_j;@Bn0=Zto"
    "KpYdt8-wvn1$5j6u)Q+~fm&#A0>=doI^ROf9gzl=1}fc6y;BYqwM7<-u0io64QP^V8X^CJfVz$RF?dl|iUe;=g5$Hw{j|F{U~5SE?~7u6Mo3^jg9"
    "BLe41k(Ezc9i-?o2T#y}i7}!ILae=eu-QxKTBQ?Yps)lzVsKU3GMaAZ@jXp#Zg{^4mU0B4@=NKWS$?XBwd+jW%!bEwlca%<yM?$LOO~xj$?z=Dh^"
    "Pv^TLAvDa%$`2l_x$w{*E1%C{b*Gl_gFlRhq@Y6+sf|-UnOHXo8N6PPm?{EtERA+DGAU5tCn*)XZ^kxx7(**W(n<n~))1}D8k>@vdjutV^I!{Wk)"
    "ibKA#H>tu*%zvbb4}VL+F5?I26)mM&dt@ei7yKFo_c@m>v}vt^DWRb@qHQ>BA=1BBQy$Pyn7Fmn$6-%P%xU?mG1Uty8=@Az5Vt6y+D=R*|=-6N(k"
    "(1)D;!Nh9ATa4ZtkChqhO^X<g#-p>+x+b<=iFEC@ZGrw~(VAm#7rpK`?xip96q&3A=1DApCpG_y-+p_?mKhJG)Tmc^H2qcoZJ@XFpo4s>6P*=R(r"
    "k<pN*G6J^=pEFR3YsB6gfAPIMCmQ2aOVe`2)M~;#699F$lW*47Lb2@i!46EpU-<e!d#>plb$5NUt|mudHSxX)G{M~IT6K=uD7k2U7L(0!k{5aAk2"
    "2CCH0Qb3$O0U$y&?E8+pDbQ6nsPtC1*doF^XQDSyWbbpPWHFrM4(WP_-1TGKlzvG-3z&Qp!8cn9`fgavf2f`BGwIn;^H*&3m32?m|Tuc(|>a)@Ia"
    ";dZ;yWDWaUWPyol*qv&Nf;6UldtKqM~#{F-@-ttXWz_CF_eeSgPR#@JK%04km!jF~2i8$O)NWmvt%NkeNGLj9JWiRzFHWp?6m2W_=!Ld~+)rlpWd"
    "@`IhwoijIy)dZh2R+H=x^X5Ly)OpF(bQ<Oq0dcfrx$RZ<SXG-Q)nrKFg#JB7`+P-L^+_+IDm!4o^=3<7iqc0XB+qFEQE0vS!jJ}1A8BH)RMd}qZl"
    "6bqM#HX<n{;d)HQL~SEyVnw{Y}%Dw)Hjuw1Gn*B-uITj#L15Ew0et$&OPeQQMtiJpw`ziU%Ds?v*-tFm(8;2s{1y351SQg~=Lr7N{4xf<nrccL~q"
    "WnN)Zfan)1@?>BLIGg(<GV7h#9NG$-*a{QHwsiSB>5egdbH-%5w^Nj6E3JCr%T)iRrqmGiP0G$10CGz}pJ!6XQk&ElMHi_trlW>>=ypAwrSl$~5Q"
    "~FSUu{M0v%SKSw+CSlt^Rq)W<&Md-%DW!@L?-9K7aA=XJnS-JHs;M_McEjXq{lZ{_P<0<9sO7rMtLOfnk9gv^Nyh@)6tCkBa((H|IWoTi!ae{A_t"
    "E&Gxh5=;l1Pflj1(8EbOsi@XA=w*_=o3}NjZ6@r{(j5q<Ju6G4^a07w<=b+xX0|?kZwBOT(0b@7$D;Z!GzW^9OsImiH6a{#_9$;l6aNq?0!o$G<D"
    "i+$G8_mONAzBu~!5KU(9TCSuaK-`GRZ*GIWxVQb>OaKP58bY6*6TwLD9gsd<VVt!sQOW90QfkV^axdo8xCeYVsIX7)`X?`k`miZI4X_jbpPILTJ%"
    "aO#M<IR9SoGc^o3~bzv!Dwb9HC*Xc;|EelgI~Tc+o67CoIgkfyNLGkS0Z+(Yz4((diLa523DAHV7y=g1Z+ypt#Fi~g)URo7H2UT#c13YA?GEm?nk"
    "?8)A%$2~LV?@#>B!*WqYpr>$+Rj~i_q?^saKDmRo-hQahx6+hnuKeDNR*K5QUA?)P<yqH8P8Bt+lj^A^K1&Ih1kg)3forWslO?NHm*mo~3wtY+R3"
    "B5e!iYAxg(jjIGElJyB$NjzmZpSbhYA<m<pyAVBr4`_Tk<bu4En-oVzfa``;e^B;sr9|$^iRjBV%5LOFy=6&2ZHSw(;xJ>1Hp+$nQroMlLb-UlbQ"
    "`dC@FE$-k3`vXR@bt&xGO@g5J#*wR|PHQeiT3~Ijt@ak>;RQUp??*&-o+-Vz}tKv2cpyiV_{bA<BSR9s`l)$3UFn~3w#|!MgBp2p@%IGW<icIs5V"
    ">r-!jq1K3A@tBXzn>W$AK2*$XdOjvC}0uX_%K<G4y=Gep|zmrV~p(n#0dKF_J_acVSPPDg7w>KFp-3sUOp8=8M8ke%gxZW-sjc+{W(3%M@QsubPo"
    "q`PnMPZSeP3V8@u?jErBYp+4^13pKt5UmBoVrs8S$9Ger^DG!`Jwe-e`ia`~L(Z<51F9w)h+<Z~vcle|uHI}BU{gE(%8rGr-o^8TkZgAGdO*tA_t"
    "_8a!7)UnM}TlWH>*tj0P?iwNt6|*);<h>s0nA=d)jZ%!X!eM6nGIp!*Rj7vvCn3$)2qMIUv(`*XU%U<n#@kHsJT&wxqw3-gt$Yg?_i_it{>102-2"
    "sN<#HH;FQ8H5J3}%D}p+G9GH)|797(`U>&UI$N`OXyCnj&XJ1Y?q4g~gC&WCV@wq=*Bpq6T8qcfG>=sN9)U7}bwCz}-s~2f_%cNV+oMlb}a%`1B0"
    "0iD_m2X9n~*jYGo_V5Hffh9odjIK}GP@NUx64p8uM4Wl}tx-P649VETjD)Lw68B)(Hi9CcxfgV!STB!d@w1U6MMsNp3Ko9cQgZm^5e(5$EsZAqko"
    "|S6*p#>xC6r-po4{Sd)Gjl?Uet8`}Kbjr%S#p*RE+)E{CU@DZc{K2pu(#B}i%fq;9zd=xD9zKmM9n9`Sh&F?0IrbeHJ|>CgBx4|&`TQ*6n^$^1f^"
    "r4cKkH*p52-US)kgrO9i6oIT8cJ`%DTJSDi6t@BX-~V<~5NnZpDmD@CdO0zrnqiHZ}DW?}^5yzr0~&WXM_qQwO!6H-Q*EZfKGTrvuElA8>r9jc%8"
    "y>kO6VN+6%=fBk^OY@=QvxKW<!6vqY*)nhFehIl}npqDXV5I31MBedPA|?Sxsk`$(^m8`d6e)lH$8pZ_KUF9NX=<$F^w7m1E=R?SmMV@t>o!f8Ow"
    "-NiV7wR%ovxC8Qz62+7xqhu$)}0$L5au`W5kbPxKvFSteA~0gEo8U=EgXz;Stj57DbF^W-Pw=jkmHz6x%7x8JK-QEk+OUzLn`R4Elz@b;MwXu$OY"
    "oLq=FA+N4Cd3MTFbxY7k4G(qj_ZwJ~3)kV6@Wn1Q%C72&?bJF!jZ-TmF9oRgotRKv}H52^Hz-v4AW|xcODz|6!6Yw2_cm@V<g>AvOh7=WhLm$zWy"
    "n0!A6+=qG!XsFMcUym2Ok9#{kurKOj26BPTdTaWgKm#C@T->!X0aTa-~YrFK0;S0TnoRi#tcIQ+G4GJvn{ia+<C+fOb&a(IPY%SiMP+ZY{dP2r&4"
    ">5Am&2yQ@fMcX0_e1y~|$5C8vlN37|{qZ6}yxuqpl?wVN`B*J7QU$b4$6CerffBC?aULi0%8@hRMaErILB!A<xk*L%!9mo022uoFjGe*fo56zqxO"
    "-gY&^SzyYYBo#?qrkp9VO||Hzw4~{hd6EQv<}rv_I3k&WV7{cx8$5;EKZ)I1(Q1z=%qwRz|LvPeUs{M<Bt!6Cp(vzDhG2F+<u7goCS!1R<M2L1qY"
    "dPC9u`<1jVF)XbDPIiXLFSz)#)sN3oH_BjwMhM%urWh$hTj%K-KsCK-Q%PlM15Hqey42lqSrh&`vtAWXk;udC-lm9vV1cuwb#(V*%}WHZT0*Lc+y"
    "BYgn_`bOEZ)*NQ=r>i}z)m@Zrm)`6E3&%Us3GMhBPhH#MQZ-<&TTx|vCnnDX)DJorsYvrN6D6S_J6-Pdfi}oT{Sb<BXQgBGJHh$W%Yyy1}cbFMdw"
    "Zir!aXQ$>Fm>(LNfc|_ZEyE%2u%1B3WtKu^>}x3ALts~ipKUbXRs18pJG!Tkxa3E%{}^lji7OqnN4Uje{w*o|3oGgZFF%kaoA1UDb==C^VW-Yn{c"
    "2_cJS(sW5)qU$>b_Gy5Vecn2ZUw)wr7~+HIzhxM9D8u8IpcgG>rY3z*2<AcRiDv`obepAr_=QpIt-c3N+9w0-`53%AiW7js%`k4cOknszOSozTOx"
    "#_bkRB&zU5l0E6EImqt}p37gfQTcraWWTc9nDefFSuxGSgjc_;tMSbSy!vHD@u-?tzpShMk?Ofu|D@C{foyvw|Cg(jZ%Vv(5oBnk=8XjSE#ZOfzv"
    "VlXt7ScJgZd{%z0-W#XQudJ6wbuKW@DSd0#Us1S#f80x^809T-ce>2bGFDGsVbJpIa-rFpTW!HaUIlX!BLV@L8ON$n?LskXghaQVhhl8pm{Fi|D<"
    "v>n|L#h~iuJQL=k9&0;OI_RT;E(I^%<!wtqaFcAJ>0az`H(6FNk?zsl%krk$^)NC8!Gjl6e5R8y<RV3wTcq+MDUgV9_TEq!!!T&2V5%rVn5}zVEw"
    "<Pc4BerTMI*r_-9q(jvF6mB*FHVum(iB;(m`Wzd-;XxBOUKe(W_5gkOE^BE1R%XLI8*;cqnuF!CSEiKh#*+Y+^`6&&U|i(JcYZ#8EWEWP&u&!kVU"
    "U5p><sb9<2#I`KEeDrY}{;*el<PzrLv7CF6$*GJZwh{xlH@e=|`;x#TLx&xV<VpN%$-9|xU;pT^#|(0@&sfl>i-fxhlpjn<9rFpj2`zx3NiILcm<"
    "U8PD~Wr|)GOVh*ym1O2eSn{uuIlA;at-+o$UYIuZN8-IM<L$L-TfrZQ*9-9`X;3V3@$52(4e4LrSNnnZZ^(4}wss%*1M%LJ@%D-JWNPezT8G)bLT"
    "&L9!#n+8BopX->$p<6b)Q2|QieCrMw}(VIEL`fhhG@pm%;^(w;9|*O^K~4@X%mCY54Z1Sc&R`vnonpkq?C`N_MijTS1Cdg<uQ^d!jxg#a`_%?|`e"
    "|HnZ~UzT3)AvMxWe;uY7Bd4^x%Ud43}W;?+9t+x9+GB(AZ-M$~&T^ZYyrE8478{0h@n`jeJ{kyT<2OmgQ>S`Rekluaq?*UIGtm~6ks)yhsCaZNYV"
    "d;8fnJkBV-5wEsl}>LTT;Gr_uYVtDk0emccz?Pf+j~})oRwTp+JxS83=)|TO*<tl<`)^*{1;C=GX<Xl#mvYvl>M=y0Otao!&{tX5^iJP`PnAx_uB"
    "IRQB;OxEzQS~pZM(jDC_<cLkWeCR``#U;47D)b6z&$KT^U|EFnpYy<q=t%->Af8!_~>+kd2}XL4m)`#MDZM@o1uiL(v%qI@ugK7h38Z}l86GNi!z"
    "fGb?tULQdEI|$By8_m6ruNv+{eRb-TY~=VMp($GVY#DNT&DyX;&!4X-VK34*Oza1xkv^l-d#*s&r=U30sdA#w=`m~_fb^+~C2dCadD0UU%3nK}_K"
    "4{V)%Q$%k?M>5Sf!Oq@K-4LN}}1?AzQ)Uy?qfN<AtU>bw3dA3mI>vZJTQTK)iu6UZ)i^U49_mm%<5=w}a*3pR((5-?`24O86_szNcYZuZOg)7nAq"
    "4UXXB^Szl{BNW5qTaBrk;Jt_cc>N2PQBn#i|X3Ws{Pe&HCeK(bv{cL^PQ()%N2gDI#{6QlKMv<P-G~<rk&~Ih7I_7^5;I)JX=L(Z;>l{{m3z|1Fn"
    "l%r})K%BH@%nE;6C$B$@~#Oj2P^B{aQ+rFp@@dMXpCz&?{CTf7W30mul0IQCmb4YZAORpq^GaO7N$7EjNlPs@`*;b^}elnu86uu)nDjXPVNanxqI"
    "K{J9fT>OFa<BQd27TCIrpybvKa&ig32mqRH1z3&5}RIhvg*1Ig+C6l+$?JLR}{%|&fiMe@Ig@=ihnQ27=Kd%BCoz6H&D8BNnjGInau7Io8p1DZ%g"
    "L!E3RA~*Pk{84a2Oi^jgZ=*PCcgZA=of8d2(^dzv?s9i5H5csjObRiCSFMG5k*&eVt(co^OJbWdx!pd{7LHnDA!_vY`AHuujd0WJD}S#GFmS}l`O"
    "G&oP3#MWV|r)@`a}22xZ0#yb;CfNYHAhT(RAr`fL2cuE|#R@1bk;o>9clndt~Wrr@qdz>*RlrC0?4Z_V@Tn^;*ZX`8MZ&<0Zksgj${_V{?&<=HG%"
    "QQARW9E$u89akc+j_y#md5}KlKhwsLL)o;iyuWz9yS?Z$t!S?!Z$)93y!!s3If7#}iLu|;IMvtYZN@naLYUuhr;qUXs>=HVfKDY?I+`*}Himt2M@"
    "?PpR3)7elrb`|{+k-wyo)w|EN<Ou~2Z-H$KDVm6W^G!3#r9B|ga)~iJ5|N%lI6FcNte;|iXdA`!866P$oUF18Hk3uq<Vyn_$_2)3VV?ZViiM~XGL"
    "Y#tglUd^ZwFDwk2-zy}R(A<U>knPo=L%bHDE<(Y}x{6f%vJ<g%;Jc~-zm;Q^T@%9--Xh)=%pko|B(Fgq2nybqXU6w3Y3f~}NpFG^{5Eptz2Cro74"
    "?&W=YEGLY<?eb+8wl6N_+dp^maS-klJXS4#`O0HOMH2zs$AE=s0b|_hG{qj~_h5dL<i?Jocn`q*mLx;Mr)Mhou9C@?h?osVuy=3K0>c^wP=ldpn!"
    ";E<J<;cj&+{)MbPcXmU}z(N(Jy11jLgkcbizU?E}gI#4as!kCX_ksWxt0kV5r!EfIA~TB_mtP(!x%L<H!;VTs=R(=jSS;_yEbKY)!S+Yt%`_d34X"
    "4Q2(`*WZg>mjU8DoD-Vz(j3enyjT0sN=MZ;j{XEMwf){rk3#kM5BqNZ0qRJ#q`WDKdE6`H%!z`<4h<Yp2>|71IAe<XIhl)>zA@g^BRN-`Wml6Q?f"
    "0tfudfI>kx+Q_B9>e(pacMy0R4Mz0GpK@gFLJu>tJwh6j)rIYFI2%7iYTY-3CU(UX!G*@bgI!CEW|jXTlp9qP=C?BsKYx1#zSXsh2g>MB~t;6-*+"
    "t=Q+?CoMt)JaYPWwCIitZdUC@A%5e=9}^^+zgQ9RkrzJtABD^^~5s1#HHly5K@jtb#McQW$_L}Oo;S6qf<a$_!fD$ZXz-*?8nNb%kLTu(&S-pXlD"
    "nQN-{h<ha1`BA+fR}Bn#52hI%!RC=?fg_v2@?#%lfbRb9P?0(s+QFpw!ptD-UgKGQ`iQ+1PP{A*6(E^RM>t#{$A4~DMPV=`sd3G+d53!aE>sVSq*"
    "ekL`+}^S<YVtipX9ktw}VINq~a^u;Y}rWzl$Pm-`hbY3CC{wgjC5yvJYIKBFEGB80&~Ajh3Ke6YN%pzJE2IHnYzy!zfC;b20I3oQceg2c#PGaklW"
    "baP9*w+#=nO{ZY^y`fS3;O?{*!d0tg;3Z$5F@zpKcj?2HnhNEQ7;j8mHARG9oQo=yd3g$gh0PS!7B(#DIwW^!==|_iX>1OE_urL<be>I^h3UnkrY"
    "@vpI-3FuLk<ZVe9nRaxf~?YU<P5n(TdT;0)p0dYYz!r<2_1h8=*(1MoO;ZTGdLjCmtxwd54N0|UJJne1U}u{4?-eMf)y{pT%_ZRQ<EfMT4L5KaHo"
    "~$?tY$q3T21EFH(KG&<SIy1e1{u`9A1`owW=bqTd6wmOm<AQ!1h6(TL~^^brfU-bD)Uh>>&}<8-MZZ9aCF_Pt+obIQ^Lewut?0zbF1Ac6aA%#lLS"
    "vl4J-){;uF-4L9}JRukTTFh)@ro2?WVays#h9pwO9Yir@fFzQPO6wvsn{)DxCMv|o8k<>9$?Of#<YH{32Ypwjw%iW@lf>iPO7Z#*15EvXc4NR^XJ"
    "Ej<XIci7io(hg&`lbHT;t%0KLhGWB{26)+E<t>Pl_xcB_Z-GnOH{jvn+KePFe<x-Y$~fUpp+vti?JsH7j)}sRBTwi?Ly@#1HGrbttwkDslr#R|SJ"
    "l*_(_--oGkbQVat&OQ_P9oJ)DV7Sm*;_A#mR2757-PPtA+!j2L!Ee0u0>7%RjhQ1=z@v%N=8Op%*q!RpCbx&|q<wfaW?8;~^Cac2v&Jc7JrH^u*z"
    "Qse^^kE#B87Jw90b8VlD<U_A)t5@pu79I{wHP_;hR|A?=5Z(udC^Jvv&WDZh14)^8coNc*NI{#G4z$M>*-oXPXa~qWPDm41VRFv7=Zx$U)R&Nh+c"
    "&}cztk6;9_Hd22u&;8{VXN(?Q!4&wer;pI8QTnKWwdIf2PXs?fdrSe&ne$(YQyIFomUC!g5#M)q8g9B~RIA}9H^pIL=#4-s)8m)Lh(NYZM^Kgh-S"
    "3cr1FWxZ&`l4|}XDKRI;ouDzYNxiA;RHN>3md_lhwB~*ME)q6Of4%kb+F&-02PFjmQA$cVC^2YZDT9hL;`Ya@gA69k%4^@p?=%Q1>YnGC&<EQ;K&"
    "q+nXYBP$SANpuJfp<xFk^c?LtOpy8NO2twJ$cyKlNC9gZ-@0&iIhZvRPt>1Q(s@pLV<hrKx`|<LOlC(=;=7)HmR4CIqqt>gO8?!PrmdYH9|GtvE-"
    "b{Wry~K+@FrKc&_0Cq8%EiK=Xb_7W|!g67JFkZexO-e~Og56RD0^A@xJ=X?iSjl<G#;zj2E<9N;*VW@X5+6KB^v2P|tzyy@sUX_RCUd4-gM4-;fJ"
    "_qj89+$}o)K@`+I?`jz-#h{uJp>3Y11mg>*<OyQ^%ObN3TH5Ji4B+>ah8~+#j6~vQU(7*P0b3_{__Zb)J?mSkl?$GxyrRrjD%zzb#e{yrj&g1-ON"
    "hd3?KXRC4M%2&>Kas_e}ZnTmb3_I-XEA0~ycq^M>=lnZ<EN|H6{Yhpws2qA(>`ar!)O0I@B!RE%b2xnSxTccRk;XGoEQ(MBAC=3+SxS?>!}14}1{"
    "*OSs&E{H87rGv=DG8DB!ew)#d=ZNzrUfxPEmDkH^U7$Yn434>CudmkE*tWl-gcGl&nPHm#yS!$L(xL;^3?CyfGrWb9at<gSa<!hZO?!7_Io3`uQ{"
    "R#l(^_$w34~aB`unS6RGeUi&44%8H8P#0^)qA;PTnzqE8b^;@3Inj%U~%fo1#d+;G0@j!Hmdj<EbawDC#l>#afAeTSLnHML=GI^GcI5F-pO0rJVv"
    "E(b$mUvrzi6j9lM;61G#E;{tS{)&BbTx5gu6_xf66ZNa*Kj>z8D**c(_p?{<fLfyp;6Yw8RIqrrFcaX6R77w}8vXHLEBk~R@yf#1|{a}#|oe$f`d"
    "x=reSgZ*7040`{ue4tTI|v#kwo_Do{(lxUVzSyy!ja$GUb0HN9R#6v;z&3jwhqTfM@1(-+30<%g!KZ0dg|x!JR{Ra^DddG@5MVORs2QjrYFxH7nV"
    "BA`iZZ#)OA)q^brGwrQicPp~f&<+zluOorDBFQ1Uqd{xxKcegQfw)lA`a;qJ4m$i2-aILVy8$sbJc1#eWgdITI`@JO6B=Vo%)EU}7Rsx60M&)RvX"
    "L4q5<59%tz;1{7Xz|6Pg6S#|Fx5Tg(vi`IImz0De5_Iv=W(m5`F1@@2!Ik4ORQqE+34$Y@GE^pQg#>|fiVRuDBh*#lDQT5kL(@XHlWSOsunP`GmC"
    "l5fph-caTNQW;%rdyi$1$UT%&IzwHM77P*%E-OAsZq)UqxN<G$Dhc+uo*!?I6Lso5D_>;_0tevK~~ojNQn4V#Dj~p{m)3O)Omy%7g#bgWXweOuwQ"
    "w=Gm%{1^#46kZxwE&GD?-6yvqY6mM9|{9$Fh!7o5{<0;CIJrtAWWhXsoohheM)i`RiOz-;FGUOB?y=@fbB#*<B5<fTY$7Tvkx9pufL(SeBmZFJCw"
    "$M}2fHCC)>w=Pf=M_Ma_Hiw3#RZNiOh|SrA$E^s#O$9Kb!rCtwVFcxodeRP@3<&jk|aaHh>xbmo;~ce^`BivN$anW<d;qbQOr=35wSL=vNXj$i#x"
    "$!Cj6mLZ-o<UIq#iZ#?*WRbeW6`FjlVsXJ$s)@&x6P)FnmCe@Q08TfIx~;_s85*oO-uXSjP`C9zG{k4)BD6Rc2$)6p39yZN|CzD7~52Z|a{4h0H0"
    "%Y+NhBTzJ>Clgcj1!r?HMH@RQQ2MOS<`|KSGf-0!aeh(GKp{;xCJ6-(qhvC`mJ?f+rw=GJ2~S1VH&U;Gx2THG-+vR8zeCrM8(c-T>eppBWWtb&Us"
    "H@VDP`I{hl-S^wAj2w2+9&RW0R=p;Dvvnf_<m&(TmKn-}Cyf$ho$^V@uiK)KrvVI>w9aQ-;Mw`X)hvj5zA>zKT&)f8{Mwt4sn=ohp}vLfnq$q>@d"
    "Hwd<0`G#|m;^ZhJdo091dB-wX-S`t5+Uom;`nVS@;e()FAM3Y%^c_``{{q&WgaXOP~kKI>6KR$-w<ZUXsMMe`S{BAD&^bvh#u4`Hi*!_eprn`N6r"
    "*hXTv*1jrRB%jHe$5!_&+AoR8m>MDp;_|&sG7J>`kFz|T}dyz8ZOxcHl{Y<z;IErvo&CDyEN&;uSqiaPzf^@H$bvi-KS5n-Y3TKbvMd3kXvh**@Y"
    "Qkm??%CWte$}8)^!Z$%YwkxEY5Tbl?p+O>f=+gCsf*h-{bWYi}&u;4EWrhqTwS!)&9ZC6}Lb1*lrgR4{hEPv+RNVf4)d)&6T5_+i%&!9xVC^79w6"
    "Ww|U26+9rx*aT)hU|k_x;Nn{0m*u{r++orOc(#gS^jQf}k!??<&Nj}d3Q*<r`;T<`M|i!Zq*{^I4eaQ2Nljcd)G^CUetJZ!N9(7l!BY|u7>*p7oU"
    "Pnf$ez}p13Qntk6x*u-&B}k(Tpt9?)3GR>Dck^v`91)&B1+>46s*kS>giCBBvv;>#z4QtCe&xGnyUn7N!KG+(pK)II^pGoh_hC9xZVn&W37<{KFW"
    "!WXV#z^nGWu+FP&ze|wqYjrm4MBy%}L{_<ZAK(izM?RHlL)(6%o<b;yFHl+`afY6;#MJ!GBXaY)cK&zKtfm2|Of|MAvyAr~7Q1+3E3jA|NQv>zSX"
    "#ZmV)4IB5@B4x#kp|=Z%cvG+WMqC6Un1F(a;;0ACQ-65uAh0yv2@mK+|$&cjkpAl5*k60kqIbv#)!3{8#C@rrw<+<XJ1c-ne5|k`MHnAM$ls;==L"
    "P=nmS`m*CO${ROHFZH*!r+?*s?AriNGG98kUBYO1Nu1#5ai`oy{5kKNUBTw$BF$tZ<rH-vuhAVxe!QU70u$d3IHk$++zyJrqHs~b05vb!GKg8(@K"
    "IlD@U{{<KesgR^H0s5IFSIO5#hI9KL2dQF`+FZ)uYVgp>dd&NF7P-20=rCxWcntZ&c!lx5Ru+Ly@q-vJD83Vmas0r1aoj`n{PV-^C&M>Li7Q1oNx"
    "3*g*(<+Wk1N0@mCeupMCDk}n`^**-{0>(tSRoA_?8aFxn~SC?fCKCFQ&c7GT}}f*O#`rf`66T{{~42KGUU2+*tV4Pm^#A&_wuA9X(l5mf<s69iDo"
    "Rel%*;oBEau^`$_gC#%vUC#Wov?6>6-j$;D0Uc^@<2tC9$Toqi`Vjd<2qcsscyQ4H6eiX0Dqx+{wMg1rqlLs4{Dmb#;VfUR!;;(`G$I&RAyED1Te"
    "O(q!pWmkmPuTWuy9Y@xW++XQC+O^#RWB{F!#KjZw`)70&?Gcl^7t)hS@+h|-&RdiJ$$TkluvTd9}1W*3}L&mZfxYb8D#y6*<*6tPtsvCaJo+FL#Z"
    "1{nDRGi#L(!0BRk<=fxi&AMjwQDgutSpiUnp<GnwxH5V{eW7|c)<q}5~eJ6h@vow7`Ak8)sAZ*WCva$uYWdL`)K{4QkuvHh&m$#r0t+r$u(^;)Js"
    "Wxj}t5cV5rzbjtS$%YOIDwJw*Ratu3G`&8IjPwJzIS1~{f`bcEY;|dkVC6*!t?SvZ4N9#Y5-Z0k|Jc6tGTFpj&O(b9H_1+LCu2Ge%8W+L##bA_g9"
    "O}}oX*1GC<s?Ym8e}>1MO3C&v1IRhkkqvjQuj1#kN9H25ms8?;m!I#hzL5#zMH@sc4qo9KZ%;*jWsZ$#5pGA3b3b-vgkaz7uS7LoN`eggP0v@Q8Z"
    "bXJ&OaLniodWR5`=DXDyW;6MUjBQNnG)iRU0orcD7qtI;O8I6&~hOeAJIrclj=Fd(F*jT6O2V`Jb6b;}$X*9(glGqvC5mJUZS-ahiAsKAR)}~G3="
    "Nd|gl8$LFO5en)#0MYfmPe}iiLkVu{Edmzdr5e4kkVx3vXk+sQYT1S;iR{jSk_#WLW$?sryZd0zRi=W(mdmpq=gzUl6-EFP^sX?@~?l?6(!fSg8I"
    "o))VPmaX0c3}sg=?c`XpDgkGz&fi{5g)8NqyaZ9WRJX{On}yN&6rcZ9^9=weoCXET7`Mi;Odb2It*Of?;N{`bp8^2*pNjOO1#&F+tp{o?)@+&6>!"
    "X?*6tv5#%?FvqTez2vPF4pclHAH4)gDv_{h`k0w0CT#o%2C`!z*Ehnz-Z=p0$5Jl)#EsKO&LWwj%Grdtm1_6`=KY2(#2&uMC&;8$JZ*|u2O4|B5+"
    "!+iPOvOt1@bVE|LSPAn9l%vE|wq1d4VOQXtR7gZOQK$ihCAPAN%KS(v5(v0@$VxFdIiU`e9^%x{u1vFk-t8I%4XK{-)!SO+fwEKM#{VpYKrEU826"
    "WJ!1g}Iq5&?>C<hE5^ceS7Gcjth&-t(w0}>NWz`ws{zTN~kd$?j`_eRKS+p{!X*6oe%EKooa7fxK&vhtgUAZPX%sdWEpylH<Y7IYrNN2k@DHDqQH"
    "{<^_fi^Fcr92-RcYJ3Fnvl-Qi~dc_B5HwRYRp?UPAo67@1|-u`jGQq>izn3c$@1wD*_>K#gEdlj<U@nrsH+@Oi1vMcOKSXYh_~6;xc#X9=z9l<6B"
    "WQ+rg%jhw08sWpJ99kex*RH$?L<wEwNj@k9g9!(_+hvXqi}EDzaNz&Q-D?BZw2oIF}$3GPm^Hhv>9(Tnq|zl1|<JM6xg;L7%J%yy%0JmF2I=mN!}"
    "98?nzK)Fc!l1~l*Y)JH7b|A|kQg$}VejP(Gh#z+D(+mcZHb47$u|LSByu-tC|0VjE#*S;2`!BLj56*dBY|#^D$HT;f8e~IrT;d^L+Cz-U2b}BK^8"
    "9sxwJ63N(a0TOrH7KSHRTS#VV${LA$Ne4zQC2=4IO|f9byW|9bk<^|JWb@+5smehnY24%{AXW#9Sq8Ru>a5AQxCWS37qtmOe`}3k58jYe|=^z6RT"
    "=uW-Nl7MGhZ?G>Nq-gn)^jE6M3jh&e*=wa+C#l~4UypNILbO5Gx&z<fw9EZL5F^Kk&)QeBj2L+?Zwxu3NP6tL4A3-lM?QxUbakxnw07-bxNM3x3c"
    "_h8C{EqH9iyW0??R*Q73?RQM@^kQcUDagZN7PSzc0EWqH!5x>PXm%plM^_{n70WSFAvUSKVh_%Tv416cp(FKWuRlK1VGstA2@)FG~d8^T%zf#sIm"
    "vt=ST5T9%EnSn!&%`*^y2RC?k`mvNQRtuPoRHX;Eza@;z1*{c>;COA-@n_bl%3f?)ZfOM#=?p)G1dHD5y8J1i&|i;>ud9sJ@?TIJ2eE=x>ot}QHJ"
    ">}g0)^-(XG&q~|SmYqVIaG)arhF5coN{O?M_$x;svoVn?ruFA;O}tVo*Fn}(^+1!XC*?i)xEei8J19L+1K7VV4AACdZK+jJwln?f9)B8mnQZ43z1"
    "dTt*Ql>Ga|Hghk0hcUS&m5jqIXyR6BG^<)9+Tuq7XE@H)c@?!l^a}3PHJxf8d5uXns2TPnM15KNxwHQz%blnL;+9WeWMkHc&_tJc~k_=rV<D!vE+"
    "tye0&q+CgQz+~D%+jqHQKnQt$;uw9WdALz^Iwn4{8jXUGbWaK378*=NKjopmFQ07v?%jIU^p%@AAI$Dkw8oux$oEe!1WBJc}b9fqPf|_Bn51LQQ|"
    "0zw^4Ky_h@#3;{frsT5FZf^5<R#NoEcjZvmn?ehA44Kn{x4~|fixxP%t-qy>+JKtq~xYd35@x0pN}F<kj*%5uvI=SGDdQ79xuwSfcvjy@E-y*Pip"
    "PPe;jmlu+Tl0NhNm{fGUElXq7WdqAqe3_%bJoA4`Gy9j9awbeAZ3qd1dA$t~qrNfuNDOVS6kD|Ab-_REsPu55#>r^=ZXvOR4@dB9Kl>36V5#Kpky"
    "ZYqnGo)m#Zp!}{A`&OC!bdha_`N=km+suo}?7!m0MAs<8w@ey6l7OIOrY?Ic>O#C0n@u<^{}N7tXLWMX(Eno|Nq1x_0Dis4zrA4hvgCi8in|6XCW"
    "i5~%;8P}w@&|MD()c_31pv|9xH9P{}&6tFK8fMW!@mn2D#a(Y$fK?&FKNp4_d!oux|C&=YL4~)#m2UgG#}HAx%88`(u8U=M=j=LTm|YvqZ=CqTP2"
    "P@{v5-oJ27r>iT3Fp-#S_u<rfhff)m7xsO{WgRsY+{{RvS5i`>au`^S%68OoWjg(EW>goRo#~u|C?KPEV^kc<tY1LaDHFO@AAA-wY4bJUTWd99!r"
    "hgQk5N|>>sjmHIDB1c&rM$GE|ElZL69a`PvtE-oy34<?{(nQEZx)5~!WPSBFE8_}P5-}8_|!mQ$2jLErzPV`>-BM+{=ZQ83@J=7A^BoSaJIGje@)"
    "hN$+=xP$pq&4Y|COo5-#v_WBID;nAl`iob09kn?9i-7~psr#x%3zxOe>cth~ZW=IFD4aQb2OlT5NsE;CE+mJt1mO|4%R0lUx(4w{;tbWZ1QqS)Lg"
    "{49zSSP!-P)XA9znAh!oCul3ysxEefWvHk8EY>j3oI2VI`OcIKb2uFKq#&k#iCy1ayjfdQ$t~O-te&-ZewiA!lXz)19^|iZlGs#@h!S$-AopBt{{"
    "IcHvj784p!SjV%|%<_e@W8|15Mh0f+c>rb$p#$#{WZ_0+A*zrbo<eELQv<Qu0z!MwEICPAr!S?tev@TaW!WeB53sO62r^&gM<q?1Su0`{t{?X@eB"
    "Cxg*ewmr35F^bCn>q?`H{HJu~7QR_}a_Tat-X1yF`MSx1rEUoTqj8Yvr0P{btF=hbt2)`mQ02+y<7+^d#-WY-7V)FggC@(0=v7*dg$iJskBV0c0G"
    "oG8vf0ReoYpE!_x<v3Zv*xd*uPJO^{6mX+V<_sv6W*ikZyaIXSjvZ$t)H9!z@kFrqRs?WKS=77y;teS4|B}fA5~PST$Fx7r(BMX|EQwgVo^-VsPQ"
    "7KEjJ^#smN8sbFIoh<O4;1^`i?9Q#vwVAjFq^v)zOMz5i4}LMleI(N*`GC}XCN=J)lN(PxswTDri>F#gy@-fG8!T8a{DSASS$Qqy;6{G>v*15kx)"
    "{W!(9Bh<N?_;z0z`s@$+@tJ(LA0O>@N&D?xnX%I-Dv?eeMkp%q{#$xOTKtsP<zFc+_KG{P{2+h4cXCkxCPC8o3D!&I&pOXde`Hbb4Mp`98*yu(|I"
    "|CIg40*P-T^<bs7SdeXCGXTzBmDXR8djP`Oc*1dm7^HUQzXyZ^*y%T{OACsWI1hKU1)Khcn>x=&x|yi=ooVo$@h_pOMErJA&zRn~INAvL9f+?;m("
    "Qti*0(GIHz>=8uwCMOohB<Kvq4r(ZBE{OcQW4(-}D>8aZsNXLbg%ipDmWKLTY)>_*nvke$0lbg<!9Z;Ehxoq)-O5D@!0vILIn*Iov;`t#BEEXo9)"
    "U8|;mU^4^eB&f<Olb9C%};FW^gyebas6`ar2HT!y?D7+uG=NdmO=8aas6k^p!lQw_Y&ly07}J4r*SVz;>O^M!jCK}(NNSMiTn%G#ex^{UnX)HsPL"
    "}w1B*(Mi&_xVdm^iif02`6Io!X0R8h%tQ62}Z#BN`l^FOMnlx(M`_1V75sdvkJr~1?D-}36QN?G5$tck1A%J8IH>rV@?Jfyz)4zV5>rwoHq&wV%I"
    "%&BDZpxK}9bOQPKc$z{cDek+l0_#vgOK)H?FQp_@@LBgZ^&W~Ih0Dq%q{?$?uk=H}VDhZ11pO3Pz_3631KbzW<f3qSj+S=Yj!Bywoo}grWKrpcqN"
    "b$ru~sm6HvidGrwQQR{0A15As6N9ruzI#AMhh<m8mEQNgAfuH2%PTmecrIpDca!KjtU-k)1X$|8E?S$fF2Ru6^jj`l7>Ujr^agy?r6U12T+N-9Gy"
    "n`mD>|O1Tg+%vIgQY*)AZ`*_&f2*ueM-~w+8z&cdzd|dKQZ!4v*j~rldh!zeG&O5!G;KRHf5P$XOKt)`0Vx@?VU+<A(UtGf0T&zA_1Q-^gbH-Kp*"
    "g)|A=^L<>$F}=uu7DBbRC?h8_6xb5<an|#t+0et4SjPXAexET_fan<AJhjJ5|e5i$m4S<<GAcmY2_4@c&8%@bdRo8)z#P!Ff^Gv=lHNbqiJ+f;=?"
    "S4ZQe|blXU&knR2JD3TtaxeLu-GbApq-e}?}9I3B7*"
)
