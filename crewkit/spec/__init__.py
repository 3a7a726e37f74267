"""Spec loading: YAML with positions, JSON Schema checks, ``extends:`` merging and the typed model."""
