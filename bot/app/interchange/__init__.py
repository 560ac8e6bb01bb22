"""Every format in and out. Read in this order:
    entries.py          an entry as read from another format, before it becomes part of a term file
    imports.py          what every import ends with: the summary, refusals with their place, term files written
                        (term_file_text.py: their YAML text)
    tbx_in.py, skos_in.py, csv_in.py     the readers (JSON is read in formats.py, checked by schema_problems.py
                        against schemas/)
    merge.py            an import merged into a glossary folder that exists
    formats.py          the entry points: read any format, write TBX (tbx_out.py), SKOS (skos_out.py), CSV, JSON
    site.py             the glossary as a static web page (web/ holds its style and script, site_words.py its
                        words in Spanish and English)
Nothing here is imported by the bot while it serves Discord: these are the command line's and the exports'."""
