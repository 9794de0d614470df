package browser

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"sort"

	"github.com/gowebengine/weblocks/browser/ipc/rendererpb"
	"github.com/gowebengine/weblocks/fetch"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The network of renderer processes: a renderer's Fetcher is the browser
// process's (remoteFetcher; remoteRequestFetcher when the browser's
// Fetcher is a RequestFetcher, so that scripts' fetch() sends any request
// and package fetch in the renderer runs redirects and CORS as in one
// process). Response bodies cross whole, not streamed.

func wireHeader(h http.Header) []*rendererpb.Header {
	names := make([]string, 0, len(h))
	for n := range h {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]*rendererpb.Header, 0, len(names))
	for _, n := range names {
		f := &rendererpb.Header{Name: n}
		for _, v := range h[n] {
			f.Values = append(f.Values, []byte(v))
		}
		out = append(out, f)
	}
	return out
}

func localHeader(fs []*rendererpb.Header) http.Header {
	h := make(http.Header, len(fs))
	for _, f := range fs {
		for _, v := range f.GetValues() {
			h[f.GetName()] = append(h[f.GetName()], string(v))
		}
	}
	return h
}

// Send sends a renderer's request with the browser's RequestFetcher: the
// response, then its streamed body's bytes as they arrive.
func (h *hostServer) Send(req *rendererpb.NetworkRequest, stream rendererpb.Host_SendServer) error {
	rf, ok := h.p.b.fetcher.(RequestFetcher)
	if !ok {
		return stream.Send(&rendererpb.NetworkResponse{Error: "the browser's Fetcher sends no requests (not a RequestFetcher)"})
	}
	u, err := url.Parse(req.GetUrl())
	if err != nil {
		return stream.Send(&rendererpb.NetworkResponse{Error: "bad URL: " + err.Error()})
	}
	ctx := stream.Context()
	resp, err := rf.FetchRequest(ctx, &FetchRequest{Method: req.GetMethod(), URL: u, Header: localHeader(req.GetHeader()), Body: req.GetBody(), Credentials: req.GetCredentials()})
	if err != nil {
		return stream.Send(&rendererpb.NetworkResponse{Error: err.Error()})
	}
	if err := stream.Send(&rendererpb.NetworkResponse{Status: int32(resp.Status), StatusText: resp.StatusText, Header: wireHeader(resp.Header), Body: resp.Body}); err != nil || resp.Stream == nil {
		if resp.Stream != nil {
			resp.Stream.Close()
		}
		return err
	}
	defer resp.Stream.Close()
	buf := make([]byte, 32<<10)
	total := 0
	for {
		n, err := resp.Stream.Read(buf)
		if n > 0 {
			if total += n; total > fetch.MaxResponseBytes {
				return status.Error(codes.ResourceExhausted, "the response is larger than fetch.MaxResponseBytes")
			}
			if serr := stream.Send(&rendererpb.NetworkResponse{Body: bytes.Clone(buf[:n])}); serr != nil {
				return serr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return status.Error(codes.Aborted, err.Error())
		}
	}
}

// remoteRequestFetcher is a renderer's RequestFetcher: the browser
// process sends.
type remoteRequestFetcher struct{ remoteFetcher }

func (f remoteRequestFetcher) FetchRequest(ctx context.Context, req *FetchRequest) (*FetchResponse, error) {
	if req.BodyStream != nil {
		return nil, errors.New("browser: a request body that is a stream is not sent from a renderer process")
	}
	ctx, cancel := context.WithCancel(ctx)
	stream, err := f.host.Send(ctx, &rendererpb.NetworkRequest{Method: req.Method, Url: req.URL.String(), Header: wireHeader(req.Header), Body: req.Body, Credentials: req.Credentials})
	if err != nil {
		cancel()
		return nil, err
	}
	resp, err := stream.Recv()
	if err != nil {
		cancel()
		return nil, err
	}
	if resp.GetError() != "" {
		cancel()
		return nil, errors.New(resp.GetError())
	}
	// The rest of the body streams in (package fetch reads it after it
	// has handed the response on).
	pr, pw := io.Pipe()
	go func() {
		for {
			m, err := stream.Recv()
			if err == io.EOF {
				pw.Close()
				return
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
			if _, err := pw.Write(m.GetBody()); err != nil {
				return // the reader closed: the body is no longer wanted
			}
		}
	}()
	return &FetchResponse{Status: int(resp.GetStatus()), StatusText: resp.GetStatusText(), Header: localHeader(resp.GetHeader()),
		Stream: &remoteBody{Reader: io.MultiReader(bytes.NewReader(resp.GetBody()), pr), pr: pr, cancel: cancel}}, nil
}

// remoteBody is a response body streaming in from the browser process;
// closing it ends the stream.
type remoteBody struct {
	io.Reader
	pr     *io.PipeReader
	cancel context.CancelFunc
}

func (b *remoteBody) Close() error {
	b.cancel()
	return b.pr.Close()
}
