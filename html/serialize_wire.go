package html

import (
	"encoding/binary"
	"errors"
	"math"
	"math/big"
)

// The wire form of a serialized record, for another process (package
// browser's renderer processes): a compact binary encoding of the record
// tree (each field in order; lengths and integers as varints). gob and
// other encoders use it through encoding.BinaryMarshaler.

// errBadRecord is a malformed wire form.
var errBadRecord = errors.New("html: malformed serialized record")

// maxRecordDepth bounds the nesting the wire form may hold (a decoder's
// recursion).
const maxRecordDepth = 1 << 16

// MarshalBinary encodes the record and the records it holds.
func (r *SerializedRecord) MarshalBinary() ([]byte, error) {
	var e recordEncoder
	e.record(r)
	return e.buf, nil
}

// UnmarshalBinary decodes what MarshalBinary encoded; malformed data is an
// error (never a panic).
func (r *SerializedRecord) UnmarshalBinary(data []byte) error {
	d := recordDecoder{buf: data}
	rec, err := d.record(0)
	if err != nil {
		return err
	}
	if rec == nil || len(d.buf) != 0 {
		return errBadRecord
	}
	*r = *rec
	return nil
}

type recordEncoder struct{ buf []byte }

func (e *recordEncoder) uvarint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }
func (e *recordEncoder) varint(v int64)   { e.buf = binary.AppendVarint(e.buf, v) }

func (e *recordEncoder) bytes(b []byte) {
	e.uvarint(uint64(len(b)))
	e.buf = append(e.buf, b...)
}

func (e *recordEncoder) record(r *SerializedRecord) {
	if r == nil {
		e.buf = append(e.buf, 0)
		return
	}
	var flags byte = 1
	if r.Bool {
		flags |= 2
	}
	if r.HasMessage {
		flags |= 4
	}
	if r.BigInt != nil {
		flags |= 8
	}
	if r.Bytes != nil {
		flags |= 16
	}
	e.buf = append(e.buf, flags, byte(r.Kind))
	e.varint(int64(r.ID))
	e.varint(int64(r.Ref))
	e.varint(int64(r.Index))
	e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(r.Number))
	if r.BigInt != nil {
		e.buf = append(e.buf, byte(r.BigInt.Sign()+1))
		e.bytes(r.BigInt.Bytes())
	}
	e.bytes([]byte(r.String))
	e.bytes([]byte(r.Flags))
	e.bytes([]byte(r.ViewType))
	e.bytes([]byte(r.Message))
	if r.Bytes != nil {
		e.bytes(r.Bytes)
	}
	e.record(r.Buffer)
	e.varint(r.ByteOffset)
	e.varint(r.Length)
	e.uvarint(uint64(len(r.Props)))
	for _, p := range r.Props {
		e.bytes([]byte(p.Key))
		e.record(p.Value)
	}
	e.uvarint(uint64(len(r.Entries)))
	for _, x := range r.Entries {
		e.record(x)
	}
}

type recordDecoder struct{ buf []byte }

func (d *recordDecoder) byte() (byte, error) {
	if len(d.buf) == 0 {
		return 0, errBadRecord
	}
	b := d.buf[0]
	d.buf = d.buf[1:]
	return b, nil
}

func (d *recordDecoder) uvarint() (uint64, error) {
	v, n := binary.Uvarint(d.buf)
	if n <= 0 {
		return 0, errBadRecord
	}
	d.buf = d.buf[n:]
	return v, nil
}

func (d *recordDecoder) varint() (int64, error) {
	v, n := binary.Varint(d.buf)
	if n <= 0 {
		return 0, errBadRecord
	}
	d.buf = d.buf[n:]
	return v, nil
}

func (d *recordDecoder) int() (int, error) {
	v, err := d.varint()
	if err != nil || v != int64(int(v)) {
		return 0, errBadRecord
	}
	return int(v), nil
}

func (d *recordDecoder) bytes() ([]byte, error) {
	n, err := d.uvarint()
	if err != nil || n > uint64(len(d.buf)) {
		return nil, errBadRecord
	}
	b := make([]byte, n)
	copy(b, d.buf)
	d.buf = d.buf[n:]
	return b, nil
}

func (d *recordDecoder) string() (string, error) {
	b, err := d.bytes()
	return string(b), err
}

// count reads a number of items, each at least one byte long.
func (d *recordDecoder) count() (int, error) {
	n, err := d.uvarint()
	if err != nil || n > uint64(len(d.buf)) {
		return 0, errBadRecord
	}
	return int(n), nil
}

func (d *recordDecoder) record(depth int) (*SerializedRecord, error) {
	if depth > maxRecordDepth {
		return nil, errBadRecord
	}
	flags, err := d.byte()
	if err != nil || flags == 0 {
		return nil, err
	}
	kind, err := d.byte()
	if err != nil {
		return nil, err
	}
	r := &SerializedRecord{Kind: SerializedKind(kind), Bool: flags&2 != 0, HasMessage: flags&4 != 0}
	if r.ID, err = d.int(); err != nil {
		return nil, err
	}
	if r.Ref, err = d.int(); err != nil {
		return nil, err
	}
	if r.Index, err = d.int(); err != nil {
		return nil, err
	}
	if len(d.buf) < 8 {
		return nil, errBadRecord
	}
	r.Number = math.Float64frombits(binary.LittleEndian.Uint64(d.buf))
	d.buf = d.buf[8:]
	if flags&8 != 0 {
		sign, err := d.byte()
		if err != nil || sign > 2 {
			return nil, errBadRecord
		}
		abs, err := d.bytes()
		if err != nil {
			return nil, err
		}
		r.BigInt = new(big.Int).SetBytes(abs)
		if sign == 0 {
			r.BigInt.Neg(r.BigInt)
		}
	}
	for _, s := range []*string{&r.String, &r.Flags, &r.ViewType, &r.Message} {
		if *s, err = d.string(); err != nil {
			return nil, err
		}
	}
	if flags&16 != 0 {
		if r.Bytes, err = d.bytes(); err != nil {
			return nil, err
		}
	}
	if r.Buffer, err = d.record(depth + 1); err != nil {
		return nil, err
	}
	if r.ByteOffset, err = d.varint(); err != nil {
		return nil, err
	}
	if r.Length, err = d.varint(); err != nil {
		return nil, err
	}
	n, err := d.count()
	if err != nil {
		return nil, err
	}
	for range n {
		var p SerializedProperty
		if p.Key, err = d.string(); err != nil {
			return nil, err
		}
		if p.Value, err = d.record(depth + 1); err != nil {
			return nil, err
		}
		r.Props = append(r.Props, p)
	}
	if n, err = d.count(); err != nil {
		return nil, err
	}
	for range n {
		x, err := d.record(depth + 1)
		if err != nil {
			return nil, err
		}
		r.Entries = append(r.Entries, x)
	}
	return r, nil
}
