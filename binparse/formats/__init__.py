"""The built-in format families, one package each: `plugin.py` declares it (signs, options,
layouts), the rest is imported when a file needs it (`binparse.family.plugins`)."""
