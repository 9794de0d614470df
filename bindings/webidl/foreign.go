package webidl

import "github.com/grafana/sobek"

// ForeignKind says which part of a member Realm.ForeignMember performs.
type ForeignKind uint8

const (
	ForeignOperation ForeignKind = iota // a regular operation
	ForeignGetter                       // an attribute's getter
	ForeignSetter                       // an attribute's setter
)

// memberFrame is one call of an operation or accessor of this realm whose
// this value has not passed a brand check yet (Realm.memberThis); seq
// tells calls apart (0: none).
type memberFrame struct {
	this sobek.Value
	seq  uint64
}

// foreignThis is what This panics with when the this value of the member
// call seq fails the brand check and Realm.ForeignMember gives a way to
// perform the member elsewhere; the member's function object recovers it
// (forwardForeign). Nothing else recovers it: a promise-returning
// operation's body (PromiseOperation) lets it through, as sobek's Try
// does any panic that is not a JavaScript exception.
type foreignThis struct {
	seq     uint64
	perform func(member string, kind ForeignKind, args []sobek.Value) sobek.Value
}

// enterMember records this as the this value of the member call starting
// now, for This to recognize it, and returns the call's number. Only the
// first brand check of a call can be forwarded: This clears the record
// once this passes, and a nested member call records its own.
func (r *Realm) enterMember(this sobek.Value) uint64 {
	r.memberSeq++
	r.memberThis = memberFrame{this: this, seq: r.memberSeq}
	return r.memberSeq
}

// checkingMember reports whether this is the this value of the member
// call whose brand check comes now, and returns the call's number.
func (r *Realm) checkingMember(this sobek.Value) (uint64, bool) {
	fr := r.memberThis
	if fr.seq == 0 || fr.this != this {
		return 0, false
	}
	r.memberThis = memberFrame{}
	return fr.seq, true
}

// forwardForeign is deferred by a member's function object while
// ForeignMember is set: when the call's brand check failed on its this
// value and ForeignMember took it (This panicked with foreignThis for
// call seq), the member is performed elsewhere and its result becomes the
// call's. Any other panic (a thrown exception) goes on.
func (r *Realm) forwardForeign(v *sobek.Value, seq uint64, m *Member, kind ForeignKind, args []sobek.Value) {
	if r.memberThis.seq == seq {
		r.memberThis = memberFrame{}
	}
	e := recover()
	if e == nil {
		return
	}
	f, ok := e.(foreignThis)
	if !ok {
		panic(e)
	}
	if f.seq != seq || m.Symbol != "" {
		r.ThrowTypeError("%s", IllegalInvocation)
	}
	*v = f.perform(m.Name, kind, args)
}
