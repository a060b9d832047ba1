"""The tournament file of INTERCHANGE.md: reading it into a plan, and writing it back."""
