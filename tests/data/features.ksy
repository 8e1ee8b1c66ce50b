meta:
  id: features
  title: Every construct of binparse's .ksy subset, for engine tests
  endian: le
doc: A made-up container that uses each feature of the subset once.
params:
  - id: n_cores
    type: u1
    doc: Multiplies the per-core table.
seq:
  - id: magic
    contents: [0x42, 0x50]
  - id: version
    type: u2
    valid:
      min: 1
      max: 3
  - id: kind
    type: u1
    enum: kind
    valid:
      in-enum: true
  - id: num_items
    type: u1
    doc: Number of entries in items.
  - id: items
    type: s4
    repeat: expr
    repeat-expr: num_items
  - id: per_core
    type: u2be
    repeat: expr
    repeat-expr: n_cores * 2
  - id: label
    type: strz
    size: 6
    encoding: ASCII
  - id: raw
    type: str
    size: 3
    encoding: UTF-8
  - id: blob
    size: num_items + 1
  - id: points
    type: point
    repeat: expr
    repeat-expr: 2
  - id: body
    size: 8
    type:
      switch-on: kind
      cases:
        'kind::scalar': body_scalar
        'kind::pair': body_pair
  - id: table
    type: table(num_items)
  - id: ratio
    type: f8
  - id: tail_v3
    type: u1
    if: version == 3
    doc: Present in version 3 only.
  - id: cores_tag
    type: u1
    if: n_cores > 2
    doc: Present when the param n_cores exceeds 2.
instances:
  double_items:
    value: num_items * 2
  first_byte:
    pos: 0
    type: u1
  tail_words:
    pos: 2
    type: u2
    repeat: expr
    repeat-expr: 2
types:
  point:
    seq:
      - id: x
        type: f4
      - id: y
        type: s2
      - id: tag
        type: u1
        enum: kind
  body_scalar:
    seq:
      - id: value
        type: u4be
  body_pair:
    seq:
      - id: a
        type: s2
      - id: b
        type: s2
  table:
    params:
      - id: rows
        type: u1
    seq:
      - id: cells
        type: u1
        repeat: expr
        repeat-expr: rows * 2
enums:
  kind:
    1: scalar
    2: pair
