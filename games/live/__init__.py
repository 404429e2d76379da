"""WebSockets: the game consumer, its routing and the channel-layer push."""
