package browser

import (
	"context"
	"errors"
	"fmt"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/browser/ipc"
	"github.com/gowebengine/weblocks/browser/ipc/rendererpb"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/storage"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// localStorage across renderer processes: the browser process keeps the
// "localStorage" bottles (in its user agent's storage shed, shared with
// its single-process windows); a renderer's Storage objects are areas of
// them (bindings.SetLocalStorageAreas), each operation a call to the
// browser process, which checks that the storage key is of the renderer's
// site (else kills it).

func wireKey(k storage.StorageKey) *rendererpb.StorageKey {
	return &rendererpb.StorageKey{Origin: k.Origin.Serialize(), TopLevelSite: k.TopLevelSite.Serialize(), HasCrossSiteAncestor: k.HasCrossSiteAncestor}
}

// Storage serves a renderer's localStorage operation.
func (h *hostServer) Storage(ctx context.Context, c *rendererpb.StorageCall) (*rendererpb.StorageReply, error) {
	p := h.p
	k := c.GetStorageKey()
	o, tls := origin.Parse(k.GetOrigin()), origin.Parse(k.GetTopLevelSite())
	if o.IsOpaque() || (origin.ObtainSite(o) != p.site && origin.ObtainSite(tls) != p.site) {
		reason := "a localStorage call for the storage key of " + k.GetOrigin() + " from a renderer of " + p.site.Serialize()
		p.b.log("browser: refused " + reason + "; killing it")
		p.kill("killed by the browser process: " + reason)
		return nil, status.Error(codes.PermissionDenied, reason)
	}
	key := storage.StorageKey{Origin: o, TopLevelSite: origin.ObtainSite(tls), HasCrossSiteAncestor: k.GetHasCrossSiteAncestor()}
	if !p.useStorageKey(key) {
		reason := fmt.Sprintf("localStorage calls for more than %d storage keys", ipc.MaxStorageKeys)
		p.b.log("browser: refused " + reason + " from " + p.site.Serialize() + "; killing it")
		p.kill("killed by the browser process: " + reason)
		return nil, status.Error(codes.ResourceExhausted, reason)
	}
	area, err := bindings.LocalStorageArea(p.b.eng.ua.StorageShed(), key)
	if err != nil {
		return replyErr(err), nil
	}
	r := &rendererpb.StorageReply{}
	switch c.GetOp() {
	case rendererpb.StorageCall_OP_LENGTH:
		r.Length, err = area.Length()
	case rendererpb.StorageCall_OP_KEY:
		var s string
		s, r.Found, err = area.Key(c.GetIndex())
		r.Key = []byte(s)
	case rendererpb.StorageCall_OP_GET_ITEM:
		var s string
		s, r.Found, err = area.GetItem(string(c.GetKey()))
		r.Value = []byte(s)
	case rendererpb.StorageCall_OP_SET_ITEM:
		err = area.SetItem(string(c.GetKey()), string(c.GetValue()))
	case rendererpb.StorageCall_OP_REMOVE_ITEM:
		err = area.RemoveItem(string(c.GetKey()))
	case rendererpb.StorageCall_OP_CLEAR:
		err = area.Clear()
	default:
		return nil, status.Error(codes.InvalidArgument, "bad localStorage operation")
	}
	if err != nil {
		return replyErr(err), nil
	}
	return r, nil
}

// useStorageKey records that the renderer uses key's localStorage: each
// key is an area of its own in the browser process, so a renderer may use
// at most ipc.MaxStorageKeys of them (of its site's origins).
func (p *rendererProc) useStorageKey(key storage.StorageKey) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.storageKeys[key] {
		return true
	}
	if len(p.storageKeys) >= ipc.MaxStorageKeys {
		return false
	}
	if p.storageKeys == nil {
		p.storageKeys = map[storage.StorageKey]bool{}
	}
	p.storageKeys[key] = true
	return true
}

func replyErr(err error) *rendererpb.StorageReply {
	var de *dom.DOMException
	if errors.As(err, &de) {
		return &rendererpb.StorageReply{ErrorName: de.Name, ErrorMessage: de.Message}
	}
	return &rendererpb.StorageReply{ErrorName: "Error", ErrorMessage: err.Error()}
}

// remoteArea is a renderer's localStorage area of one storage key: the
// browser process's.
type remoteArea struct {
	host rendererpb.HostClient
	key  *rendererpb.StorageKey
}

func (a remoteArea) call(c *rendererpb.StorageCall) (*rendererpb.StorageReply, error) {
	c.StorageKey = a.key
	r, err := a.host.Storage(context.Background(), c)
	if err != nil {
		return nil, dom.NewDOMException("localStorage is not available: the browser process did not answer ("+err.Error()+").", dom.InvalidStateError)
	}
	if r.GetErrorName() != "" {
		return nil, dom.NewDOMException(r.GetErrorMessage(), r.GetErrorName())
	}
	return r, nil
}

func (a remoteArea) Length() (uint32, error) {
	r, err := a.call(&rendererpb.StorageCall{Op: rendererpb.StorageCall_OP_LENGTH})
	if err != nil {
		return 0, err
	}
	return r.GetLength(), nil
}

func (a remoteArea) Key(index uint32) (string, bool, error) {
	r, err := a.call(&rendererpb.StorageCall{Op: rendererpb.StorageCall_OP_KEY, Index: index})
	if err != nil {
		return "", false, err
	}
	return string(r.GetKey()), r.GetFound(), nil
}

func (a remoteArea) GetItem(key string) (string, bool, error) {
	r, err := a.call(&rendererpb.StorageCall{Op: rendererpb.StorageCall_OP_GET_ITEM, Key: []byte(key)})
	if err != nil {
		return "", false, err
	}
	return string(r.GetValue()), r.GetFound(), nil
}

func (a remoteArea) SetItem(key, value string) error {
	// An item over the whole quota cannot be stored (and would not fit in
	// a message to the browser process).
	if len(key)+len(value) > ipc.MaxRecvBytes-1<<20 {
		return dom.NewDOMException("Setting the value of '"+key+"' exceeded the quota.", dom.QuotaExceededError)
	}
	_, err := a.call(&rendererpb.StorageCall{Op: rendererpb.StorageCall_OP_SET_ITEM, Key: []byte(key), Value: []byte(value)})
	return err
}

func (a remoteArea) RemoveItem(key string) error {
	_, err := a.call(&rendererpb.StorageCall{Op: rendererpb.StorageCall_OP_REMOVE_ITEM, Key: []byte(key)})
	return err
}

func (a remoteArea) Clear() error {
	_, err := a.call(&rendererpb.StorageCall{Op: rendererpb.StorageCall_OP_CLEAR})
	return err
}

// remoteAreas is a renderer's provider of localStorage areas
// (bindings.SetLocalStorageAreas).
func remoteAreas(host rendererpb.HostClient) func(*html.EnvironmentSettingsObject) (bindings.StorageArea, error) {
	return func(env *html.EnvironmentSettingsObject) (bindings.StorageArea, error) {
		key, err := storage.ObtainAStorageKey(env)
		if err != nil {
			return nil, dom.NewDOMException("Access is denied for this document.", dom.SecurityError)
		}
		return remoteArea{host: host, key: wireKey(key)}, nil
	}
}
