"""Pure presentation data: records, JSON positions, text boards, board views, phrases (no Django)."""
