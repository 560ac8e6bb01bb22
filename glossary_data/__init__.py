"""The shipped glossary, installed as the package data `bot.glossary_data` (see pyproject.toml): a wheel carries
it wherever it is installed. Editors edit the YAML files here; this file only makes the folder a package."""
