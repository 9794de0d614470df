package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
)

// This file adapts the implementation types to the Methods interfaces the
// generated bindings call (one method per IDL member).

func realmOf(r *webidl.Realm) *Realm { return r.Data.(*Realm) }

// Statics (constructors and static operations).

// AbortController

// AbortSignal

// Event handler attributes over eventHandlerGet/Set.

// EventTarget

// Event

// DOMException

// LockManager

// Lock

// Navigator and WorkerNavigator

// StorageBucketManager and StorageBucket

// Compile-time checks that the implementations satisfy the generated
// Methods interfaces.
var (
	_ ElementMethods          = (*nodeImpl)(nil)
	_ DocumentTypeMethods     = (*doctypeImpl)(nil)
	_ TextMethods             = (*nodeImpl)(nil)
	_ CommentMethods          = (*nodeImpl)(nil)
	_ HTMLElementMethods      = (*htmlElementImpl)(nil)
	_ HTMLHeadElementMethods  = (*htmlElementImpl)(nil)
	_ DocumentFragmentMethods = (*nodeImpl)(nil)
)
