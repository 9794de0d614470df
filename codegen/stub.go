package codegen

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gowebengine/weblocks/idl"
)

// emitStub writes a stub implementation of the Methods (and Statics)
// interfaces of an interface, and compile-time assertions that it
// satisfies them: the coverage check builds these.
func (g *Generator) emitStub(b *bytes.Buffer, it *Interface, attrs []*attrInfo, sets []*opSet, iter *idl.Iterable, ml *idl.Maplike, sl *idl.Setlike, str *MemberInfo, hasStatics bool) {
	n := GoName(it.Name)
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	zret := func(ti *tinfo) string {
		if ti == nil || ti.cat == catUndefined {
			return "return nil"
		}
		return "var zero " + ti.goType + "\n\treturn zero, nil"
	}
	if it.Kind != "namespace" {
		w("type stub%s struct{ webidl.Reflector }\n\nvar _ %sMethods = (*stub%s)(nil)\n\n", n, n, n)
		for _, ai := range attrs {
			if ai.static {
				continue
			}
			if ai.ti.name == "ObservableArray" {
				w("func (*stub%s) %s(uint32, %s) error { return nil }\n\nfunc (*stub%s) %s(uint32, %s) error { return nil }\n\n", n, ai.getter, ai.ti.inner.goType, n, ai.setter, ai.ti.inner.goType)
				continue
			}
			w("func (*stub%s) %s() (%s, error) {\n\t%s\n}\n\n", n, ai.getter, ai.ti.goType, zret(ai.ti))
			if ai.setter != "" {
				w("func (*stub%s) %s(%s) error { return nil }\n\n", n, ai.setter, ai.ti.goType)
			}
		}
		for _, s := range sets {
			if s.static || s.ctor {
				continue
			}
			for _, op := range s.ops {
				if !op.declares {
					continue
				}
				ret := g.mustType(op.ret)
				w("func (*stub%s) %s(%s) %s {\n\t%s\n}\n\n", n, op.method, strings.Join(g.argDecls(op.params), ", "), retDecl(ret), zret(ret))
			}
		}
		if str != nil {
			if op, ok := str.Member.(*idl.Operation); ok && op.Name == "" {
				w("func (*stub%s) Stringifier() (webidl.DOMString, error) { return \"\", nil }\n\n", n)
			}
		}
		if iter != nil && (iter.Async || iter.Key != nil) {
			if iter.Async {
				w("func (*stub%s) AsyncIterate(%s) (webidl.AsyncIterator, error) { return nil, nil }\n\n", n, strings.Join(g.argDecls(iter.Arguments), ", "))
			} else {
				w("func (*stub%s) IterablePairs() ([]webidl.KV[%s, %s], error) { return nil, nil }\n\n", n, g.mustType(iter.Key).goType, g.mustType(iter.Value).goType)
			}
		}
		if ml != nil {
			k, v := g.mustType(ml.Key).goType, g.mustType(ml.Value).goType
			w("func (*stub%s) MaplikeEntries() ([]webidl.KV[%s, %s], error) { return nil, nil }\n\n", n, k, v)
			if !ml.Readonly {
				w("func (*stub%s) MaplikeSet(%s, %s) error { return nil }\nfunc (*stub%s) MaplikeDelete(%s) (bool, error) { return false, nil }\nfunc (*stub%s) MaplikeClear() error { return nil }\n\n", n, k, v, n, k, n)
			}
		}
		if sl != nil {
			v := g.mustType(sl.Value).goType
			w("func (*stub%s) SetlikeValues() ([]%s, error) { return nil, nil }\n\n", n, v)
			if !sl.Readonly {
				w("func (*stub%s) SetlikeAdd(%s) error { return nil }\nfunc (*stub%s) SetlikeDelete(%s) (bool, error) { return false, nil }\nfunc (*stub%s) SetlikeClear() error { return nil }\n\n", n, v, n, v, n)
			}
		}
	}
	if !hasStatics {
		return
	}
	w("type stubStatics%s struct{}\n\nvar _ %sStatics = stubStatics%s{}\n\n", n, n, n)
	for _, ai := range attrs {
		if !ai.static {
			continue
		}
		w("func (stubStatics%s) %s(r *webidl.Realm) (%s, error) {\n\t%s\n}\n\n", n, ai.getter, ai.ti.goType, zret(ai.ti))
		if ai.setter != "" {
			w("func (stubStatics%s) %s(r *webidl.Realm, v %s) error { return nil }\n\n", n, ai.setter, ai.ti.goType)
		}
	}
	for _, s := range sets {
		if !s.static && !s.ctor {
			continue
		}
		for _, op := range s.ops {
			if !op.declares {
				continue
			}
			params := strings.Join(append([]string{"r *webidl.Realm"}, g.argDecls(op.params)...), ", ")
			if s.ctor {
				w("func (stubStatics%s) %s(%s) (%sMethods, error) { return &stub%s{}, nil }\n\n", n, op.method, params, n, n)
			} else {
				ret := g.mustType(op.ret)
				w("func (stubStatics%s) %s(%s) %s {\n\t%s\n}\n\n", n, op.method, params, retDecl(ret), zret(ret))
			}
		}
	}
}
