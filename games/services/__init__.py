"""The one path that changes games, and the policy every edge asks."""
