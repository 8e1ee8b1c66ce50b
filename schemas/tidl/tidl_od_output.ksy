meta:
  id: tidl_od_output
  title: TIDL object-detection output (TIDL_ODLayerHeaderInfo and TIDL_ODLayerObjInfo)
  endian: le
doc: |
  The output buffer of TIDL's detection post-processing layer starts with a header that says
  how many objects follow, how big each object record is and where the first one starts. All
  header numbers are float32, as TI declares them (counts and byte sizes stored as floats).
  Object records are objInfoSize bytes apart from byte objInfoOffset of the buffer; each holds a
  TIDL_ODLayerObjInfo with up to TIDL_OD_MAX_KEY_POINTS (32) key points.
doc-ref: TI itidl_ti.h (J7 08.06), TIDL_ODLayerHeaderInfo, TIDL_ODLayerObjInfo, TIDL_ODLayerKeyPoint
seq:
  - id: header
    type: od_layer_header_info
types:
  od_layer_header_info:
    doc: TIDL_ODLayerHeaderInfo (20 bytes).
    seq:
      - id: num_det_objects
        type: f4
        doc: numDetObjects. Number of detected objects (a whole number stored as float).
      - id: obj_info_size
        type: f4
        doc: objInfoSize. Bytes from one object record to the next.
      - id: od_num_key_points
        type: f4
        doc: odNumKeyPoints. Key points used per object.
      - id: obj_info_offset
        type: f4
        doc: objInfoOffset. Byte offset of the first object record from the start of the buffer.
      - id: od_object_type
        type: s4
        doc: odObjectType. Bit set of eTIDL_DetectionOutputFormat (2D box 0, 3D box 1, key points 2, object pose 3).
  od_layer_key_point:
    doc: TIDL_ODLayerKeyPoint (12 bytes).
    seq:
      - id: x
        type: f4
      - id: y
        type: f4
      - id: kpt_confidence
        type: f4
  od_layer_obj_info:
    doc: TIDL_ODLayerObjInfo (412 bytes).
    seq:
      - id: obj_id
        type: f4
        doc: ObjId.
      - id: label
        type: f4
        doc: label (class index).
      - id: score
        type: f4
        doc: score.
      - id: xmin
        type: f4
      - id: ymin
        type: f4
      - id: xmax
        type: f4
      - id: ymax
        type: f4
      - id: key_points
        type: od_layer_key_point
        repeat: expr
        repeat-expr: 32
        doc: keyPoints[TIDL_OD_MAX_KEY_POINTS].
  od_3d_layer_obj_info:
    doc: TIDL_3DODLayerObjInfo (40 bytes).
    seq:
      - id: obj_id
        type: f4
      - id: label
        type: f4
      - id: score
        type: f4
      - id: x
        type: f4
      - id: y
        type: f4
      - id: z
        type: f4
      - id: w
        type: f4
      - id: l
        type: f4
      - id: h
        type: f4
      - id: yaw
        type: f4
