meta:
  id: riff_chunk
  title: The header of one chunk of a RIFF file
  endian: le
  encoding: ASCII
doc: |
  RIFF files (WAV sound, AVI video, WebP pictures) are a run of chunks: a four-letter tag, the
  number of bytes of data that follows, the data, and one pad byte when that number is odd.
seq:
  - id: tag
    type: str
    size: 4
  - id: size
    type: u4
instances:
  padded_size:
    value: size + size % 2
    doc: The bytes the chunk's data takes in the file, its pad byte included.
