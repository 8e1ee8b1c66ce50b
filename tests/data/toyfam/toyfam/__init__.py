"""A toy binparse family: `.toy` files (magic TOY1, rows and cols as u16, then int16 values) and
`--toy` device buffers (rows of `--toy-pitch` int16 values, the first `cols` of each holding data)."""
