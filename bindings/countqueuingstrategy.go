package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
)

type countQueuingStrategyStatics struct{}

// Constructor is https://streams.spec.whatwg.org/#cqs-constructor.
func (countQueuingStrategyStatics) Constructor(ir *webidl.Realm, init QueuingStrategyInit) (CountQueuingStrategyMethods, error) {
	// 1. Set this.[[highWaterMark]] to init["highWaterMark"].
	return &queuingStrategyImpl{realm: realmOf(ir), highWaterMark: init.HighWaterMark}, nil
}
