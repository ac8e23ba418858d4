"""One module per export format written by generate_export.py."""
