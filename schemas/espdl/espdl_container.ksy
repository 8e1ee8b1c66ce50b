meta:
  id: espdl_container
  title: ESP-DL model file (.espdl) and model packs
  file-extension: espdl
  endian: le
doc: |
  The container of ESP-DL (v3) models: a 4-byte magic, then either one model or a pack of models.
  A model record is the magic's 4 bytes, `mode` (0 plain, 1 AES-128-CTR encrypted), `size` (bytes of
  the FlatBuffer) and, in the EDL2 generation, 4 zero bytes; the FlatBuffer (`espdl.fbs`, root
  `Model`) follows: at byte 12 of the record for EDL1/PDL1, at byte 16 for EDL2/PDL2/PDL3.
  A pack (PDL1, PDL2, PDL3) has a table of `{data_off, name_off, name_len}` entries (absolute file
  offsets); PDL3 puts a 16-byte version, the package size and a SHA-256 before the model count.
  A PDL1 pack holds EDL1 records (its first right after the names, the next right after it: esp-dl's
  face detector pack), PDL2 and PDL3 packs EDL2 records at 16-byte aligned offsets. The FlatBuffer
  differs by generation too (espdl_model.yaml `generations`).
doc-ref: espressif/esp-dl esp-dl/fbs_loader/src/fbs_loader.cpp (create_fbs_model, get_model_offset_by_index); esp-ppq esp_ppq/parser/espdl/helper.py (save)
seq:
  - id: magic
    type: str
    size: 4
    encoding: ASCII
    valid:
      any-of: ['"EDL1"', '"EDL2"', '"PDL1"', '"PDL2"', '"PDL3"']
    doc: EDL1 / EDL2 (one model), PDL1 / PDL2 / PDL3 (a pack of models).
  - id: model
    type: 'model_record(magic == "EDL1" ? 12 : 16)'
    if: magic == "EDL1" or magic == "EDL2"
    doc: The one model of an EDL file (its record starts at byte 0; this reads from byte 4).
  - id: pdl3_header
    type: pdl3_header
    if: magic == "PDL3"
  - id: model_num
    type: u4
    if: magic == "PDL1" or magic == "PDL2" or magic == "PDL3"
    doc: model_num. Models in the pack.
  - id: entries
    type: 'pack_entry(magic == "PDL1" ? 12 : 16)'
    repeat: expr
    repeat-expr: model_num
    if: magic == "PDL1" or magic == "PDL2" or magic == "PDL3"
    doc: One entry per packed model.
types:
  model_record:
    doc: A model after its 4-byte magic (mode, size, padding, the FlatBuffer).
    params:
      - id: header_size
        type: u1
        doc: 12 (EDL1, PDL1) or 16 (EDL2, PDL2, PDL3).
    seq:
      - id: mode
        type: u4
        enum: crypt_mode
        valid:
          in-enum: true
        doc: mode. 0 plain, 1 AES-128-CTR (decrypted with the key given, `--key`).
      - id: size
        type: u4
        doc: size. Bytes of the FlatBuffer payload.
      - id: reserved
        size: header_size - 12
        doc: 4 zero bytes in the EDL2 generation (the payload is 16-byte aligned).
      - id: payload
        size: size
        doc: The FlatBuffer (espdl.fbs root Model), possibly encrypted.
  pdl3_header:
    doc: The PDL3 fields before model_num (52 bytes).
    seq:
      - id: version
        size: 16
        doc: Version (16 bytes).
      - id: package_size
        type: u4
        doc: Package size.
      - id: sha256
        size: 32
        doc: SHA-256 of the package.
  pack_entry:
    doc: '{data_off, name_off, name_len}: where one packed model and its name are.'
    params:
      - id: header_size
        type: u1
    seq:
      - id: data_off
        type: u4
        doc: File offset of the model record.
      - id: name_off
        type: u4
        doc: File offset of the model name.
      - id: name_len
        type: u4
        doc: Length of the model name.
    instances:
      name:
        pos: name_off
        type: str
        size: name_len
        encoding: UTF-8
      model:
        pos: data_off + 4
        type: model_record(header_size)
enums:
  crypt_mode:
    0: plain
    1: aes_128_ctr
