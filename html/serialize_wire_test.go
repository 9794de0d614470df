package html

import (
	"math/big"
	"reflect"
	"testing"
)

// TestSerializedRecordWire: a record tree survives MarshalBinary and
// UnmarshalBinary; every truncation and a corrupted byte of its wire form
// is an error or a record, never a panic.
func TestSerializedRecordWire(t *testing.T) {
	buf := &SerializedRecord{Kind: SerializedArrayBuffer, ID: 3, Bytes: []byte{1, 2, 3}}
	rec := &SerializedRecord{Kind: SerializedObject, ID: 1, Props: []SerializedProperty{
		{Key: "n", Value: &SerializedRecord{Kind: SerializedNumber, Number: -1.5}},
		{Key: "s\xed\xa0\x80", Value: &SerializedRecord{Kind: SerializedString, String: "x\xed\xa0\x80"}},
		{Key: "big", Value: &SerializedRecord{Kind: SerializedBigInt, BigInt: big.NewInt(-1 << 62)}},
		{Key: "zero", Value: &SerializedRecord{Kind: SerializedBigInt, BigInt: new(big.Int)}},
		{Key: "re", Value: &SerializedRecord{Kind: SerializedRegExp, ID: 2, String: "a+", Flags: "gi"}},
		{Key: "err", Value: &SerializedRecord{Kind: SerializedError, ID: 5, String: "TypeError", Message: "m", HasMessage: true}},
		{Key: "view", Value: &SerializedRecord{Kind: SerializedArrayBufferView, ID: 4, ViewType: "Uint8Array", Buffer: buf, ByteOffset: 1, Length: 2}},
		{Key: "empty", Value: &SerializedRecord{Kind: SerializedArrayBuffer, ID: 6, Bytes: []byte{}}},
		{Key: "map", Value: &SerializedRecord{Kind: SerializedMap, ID: 7, Entries: []*SerializedRecord{
			{Kind: SerializedBoolean, Bool: true}, {Kind: SerializedRef, Ref: 1}}}},
		{Key: "port", Value: &SerializedRecord{Kind: SerializedTransferred, Index: 2}},
	}}
	data, err := rec.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got SerializedRecord
	if err := got.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&got, rec) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, *rec)
	}
	for i := range data {
		var r SerializedRecord
		if r.UnmarshalBinary(data[:i]) == nil {
			t.Fatalf("truncated at %d: no error", i)
		}
		bad := append([]byte(nil), data...)
		bad[i] ^= 0xff
		_ = r.UnmarshalBinary(bad)
	}
	var r SerializedRecord
	if r.UnmarshalBinary(append(data, 0)) == nil {
		t.Fatal("trailing bytes: no error")
	}
}
