meta:
  id: wav
  title: A WAV sound file (RIFF, form WAVE) of PCM samples
  file-extension: wav
  endian: le
  encoding: ASCII
  imports:
    - riff_chunk
doc: |
  A RIFF file of form WAVE: a format chunk (`fmt `) that says how the sound is stored, then the
  samples (`data`). Any other chunk (LIST, fact, ...) is kept as raw bytes. Written for the tour
  in docs/ksy.md: 16-bit samples only.
seq:
  - id: magic
    contents: RIFF
  - id: riff_size
    type: u4
  - id: form
    contents: WAVE
  - id: chunks
    type: chunk
    repeat: eos
types:
  chunk:
    seq:
      - id: header
        type: riff_chunk
      - id: body
        size: header.size
        type:
          switch-on: header.tag
          cases:
            '"fmt "': format
            '"data"': samples
      - id: pad
        size: header.size % 2
  format:
    seq:
      - id: codec
        type: u2
        enum: codec
      - id: channels
        type: u2
      - id: sample_rate
        type: u4
      - id: byte_rate
        type: u4
      - id: block_align
        type: u2
      - id: bits_per_sample
        type: u2
        valid: 16
    instances:
      seconds_per_frame:
        value: 1.0 / sample_rate
  samples:
    seq:
      - id: values
        type: s2
        repeat: eos
enums:
  codec:
    1: pcm
    3: ieee_float
    6: a_law
    7: mu_law
