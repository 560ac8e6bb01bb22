"""What every feature uses: strings per language, embeds fitted to Discord's limits, buttons as payloads,
persistent items and forms that fail politely, permissions, the guard, the card cache, and `services`."""
