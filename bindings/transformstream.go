package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/streams"
	"github.com/grafana/sobek"
)

// transformStreamImpl is a TransformStream object.
type transformStreamImpl struct {
	webidl.Reflector
	realm    *Realm
	ts       *streams.TransformStream
	readable *readableStreamImpl
	writable *writableStreamImpl
}

type transformStreamStatics struct{}

// Constructor is https://streams.spec.whatwg.org/#ts-constructor.
func (transformStreamStatics) Constructor(ir *webidl.Realm, transformer *sobek.Object, writableStrategy, readableStrategy QueuingStrategy) (TransformStreamMethods, error) {
	r := realmOf(ir)
	// 1. If transformer is missing, set it to null.
	// 2. Let transformerDict be transformer, converted to an IDL value of
	// type Transformer.
	var dict Transformer
	idlReadDictTransformer(ir, transformer, &dict)
	// 3. If transformerDict["readableType"] exists, throw a RangeError
	// exception.
	if dict.ReadableType != nil {
		return nil, webidl.NewRangeError("Failed to construct 'TransformStream': Invalid readableType is specified")
	}
	// 4. If transformerDict["writableType"] exists, throw a RangeError
	// exception.
	if dict.WritableType != nil {
		return nil, webidl.NewRangeError("Failed to construct 'TransformStream': Invalid writableType is specified")
	}
	// 5. Let readableHighWaterMark be ? ExtractHighWaterMark(readableStrategy, 0).
	readableHWM, err := streams.ExtractHighWaterMark(readableStrategy.HighWaterMark.Value, readableStrategy.HighWaterMark.Present, 0)
	if err != nil {
		return nil, streamsError(err)
	}
	// 6. Let readableSizeAlgorithm be ! ExtractSizeAlgorithm(readableStrategy).
	readableSize := extractSizeAlgorithm(readableStrategy)
	// 7. Let writableHighWaterMark be ? ExtractHighWaterMark(writableStrategy, 1).
	writableHWM, err := streams.ExtractHighWaterMark(writableStrategy.HighWaterMark.Value, writableStrategy.HighWaterMark.Present, 1)
	if err != nil {
		return nil, streamsError(err)
	}
	// 8. Let writableSizeAlgorithm be ! ExtractSizeAlgorithm(writableStrategy).
	writableSize := extractSizeAlgorithm(writableStrategy)
	// 9-13. (streams.NewTransformStream.) The transformer's methods are
	// invoked with transformer as their this value.
	this := sobek.Value(sobek.Undefined())
	if transformer != nil {
		this = transformer
	}
	var ctl *transformStreamDefaultControllerImpl
	controller := func(c *streams.TransformController) *transformStreamDefaultControllerImpl {
		if ctl == nil {
			ctl = &transformStreamDefaultControllerImpl{c: c}
		}
		return ctl
	}
	var t streams.Transformer
	if dict.Start != nil {
		t.Start = func(c *streams.TransformController) (any, error) {
			v, err := dict.Start.Invoke(this, controller(c))
			if err != nil {
				return nil, err
			}
			return v, nil
		}
	}
	if dict.Transform != nil {
		t.Transform = func(chunk any, c *streams.TransformController) streams.Promise {
			return &streamPromise{dict.Transform.Invoke(this, jsStreamValue(chunk), controller(c))}
		}
	}
	if dict.Flush != nil {
		t.Flush = func(c *streams.TransformController) streams.Promise {
			return &streamPromise{dict.Flush.Invoke(this, controller(c))}
		}
	}
	if dict.Cancel != nil {
		t.Cancel = func(reason any) streams.Promise {
			return &streamPromise{dict.Cancel.Invoke(this, jsStreamValue(reason))}
		}
	}
	ts, err := streams.NewTransformStream(r.streamHost(), t, writableHWM, writableSize, readableHWM, readableSize)
	if err != nil {
		return nil, streamsError(err)
	}
	return &transformStreamImpl{realm: r, ts: ts, readable: r.newReadableStreamObject(ts.Readable()),
		writable: &writableStreamImpl{realm: r, s: ts.Writable()}}, nil
}

// Readable is https://streams.spec.whatwg.org/#ts-readable.
func (o *transformStreamImpl) Readable() (ReadableStreamMethods, error) { return o.readable, nil }

// Writable is https://streams.spec.whatwg.org/#ts-writable.
func (o *transformStreamImpl) Writable() (WritableStreamMethods, error) { return o.writable, nil }
