package bindings

import (
	"net/url"

	"github.com/gowebengine/weblocks/bindings/webidl"
)

type workerLocationImpl struct {
	webidl.Reflector
	url *url.URL
}

func (l *workerLocationImpl) part(k string) (string, error) {
	if l.url == nil {
		return "", nil
	}
	return urlParts(l.url)[k], nil
}

func (l *workerLocationImpl) Href() (string, error) { return l.part("href") }

func (l *workerLocationImpl) Origin() (string, error) { return l.part("origin") }

func (l *workerLocationImpl) Protocol() (string, error) { return l.part("protocol") }

func (l *workerLocationImpl) Host() (string, error) { return l.part("host") }

func (l *workerLocationImpl) Hostname() (string, error) { return l.part("hostname") }

func (l *workerLocationImpl) Port() (string, error) { return l.part("port") }

func (l *workerLocationImpl) Pathname() (string, error) { return l.part("pathname") }

func (l *workerLocationImpl) Search() (string, error) { return l.part("search") }

func (l *workerLocationImpl) Hash() (string, error) { return l.part("hash") }

// workerLocationImpl implements WorkerLocation.
var _ WorkerLocationMethods = (*workerLocationImpl)(nil)
