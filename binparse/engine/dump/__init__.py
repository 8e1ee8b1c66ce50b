"""What `inspect` shows of a record: its fields as text and JSON (`fields`), the whole value tree of a
user's schema (`tree`)."""
