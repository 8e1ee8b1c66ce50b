"""Backends: the same schema model executed two ways.

`numpy_backend` turns fixed-size types into structured dtypes and field specs for zero-copy
accessors; `construct_backend` turns every type into a construct object that parses and builds.
"""
