"""The Discord application: client, cogs, embeds and views. Thin: options in, core/storage, embed out."""
