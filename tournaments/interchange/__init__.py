"""The tournament file of docs/contrato.md: reading it into a plan, and writing it back."""
