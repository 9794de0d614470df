// Package isolate runs a product's tests in child processes, the way
// browsers run pages in renderer processes: a Go stack overflow or an
// out-of-memory is fatal to the process it happens in, and no recover
// catches it, so an engine running in the runner's own process could lose
// the whole run to one hostile test. With isolation such a test costs only
// its own result (CRASH), and the next test gets a fresh child.
//
// The child is the runner's own executable (os.Executable) started with the
// hidden first argument ChildArg; MaybeChild, called first thing in main
// (and in TestMain of test binaries that isolate), turns the process into
// a child. Parent and child talk JSON lines over the child's stdin and
// stdout: the parent sends a hello (product name, configuration and the
// server's description), then one test at a time; the child answers with
// log lines and one result per test. The child's stderr is kept for the
// CRASH message.
//
// Limits: the child sets debug.SetMaxStack (a runaway recursion in Go code
// dies fast instead of growing to 1 GB), debug.SetMemoryLimit, and a
// watchdog that ends the child when it is out of memory (childproc.Limit,
// shared with the browser's renderer processes). The
// child declares a TIMEOUT half the grace after the harness timeout; the
// parent kills a child that has not answered by the runner's deadline
// (harness timeout plus grace), which is a TIMEOUT too, and recycles every
// child whose test ended in TIMEOUT or CRASH, so no runaway computation (a
// catastrophic regular expression) keeps a core busy afterwards. A child
// that dies is a CRASH whose message starts with the reason
// (CrashReason).
//
// Isolation knows nothing about the product it runs: any registered
// product can be isolated.
package isolate

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/gowebengine/weblocks/internal/childproc"
	"github.com/gowebengine/weblocks/wpt-runner/product"
)

// ChildArg is the hidden first argument that makes the runner's executable
// a product child.
const ChildArg = "__wpt-runner-product-child"

// Defaults for Options.
const (
	DefaultMemoryLimit  = 2 << 30
	DefaultMaxStack     = 256 << 20
	DefaultRecycleAfter = 1000
)

// Options configure an isolated product.
type Options struct {
	// Product is the registered name of the product to run in children.
	Product string
	// Config is passed to the product's factory in the child.
	Config product.Config
	// Command returns the command that starts a child; nil means the
	// running executable with the argument ChildArg.
	Command func() (*exec.Cmd, error)
	// MemoryLimit is the memory (bytes) a child may use; 0 means
	// DefaultMemoryLimit.
	MemoryLimit int64
	// MaxStack bounds one goroutine's stack in a child (bytes); 0 means
	// DefaultMaxStack.
	MaxStack int
	// RecycleAfter is how many tests a child runs before a fresh one
	// replaces it (bounding anything the product leaks); 0 means
	// DefaultRecycleAfter.
	RecycleAfter int
	// Grace is the runner's grace (product.SafeRun's): how long after the
	// harness timeout the test's context ends; 0 means
	// product.DefaultGrace. The child itself declares a TIMEOUT half of
	// it after the harness timeout, so that its answer (with the subtest
	// results it has) arrives before the runner's deadline.
	Grace time.Duration
}

// New returns an isolated product: it implements product.Product by
// running opts.Product in child processes, up to Env.Jobs at a time.
func New(opts Options) product.Product {
	if opts.MemoryLimit <= 0 {
		opts.MemoryLimit = DefaultMemoryLimit
	}
	if opts.MaxStack <= 0 {
		opts.MaxStack = DefaultMaxStack
	}
	if opts.RecycleAfter <= 0 {
		opts.RecycleAfter = DefaultRecycleAfter
	}
	if opts.Grace <= 0 {
		opts.Grace = product.DefaultGrace
	}
	if opts.Command == nil {
		opts.Command = func() (*exec.Cmd, error) {
			exe, err := os.Executable()
			if err != nil {
				return nil, err
			}
			return exec.Command(exe, ChildArg), nil
		}
	}
	return &Isolated{opts: opts}
}

// Isolated is a product whose tests run in child processes.
type Isolated struct {
	opts Options

	mu      sync.Mutex
	hello   *hello
	logf    func(string, ...any)
	idle    []*child
	all     map[*child]bool
	version string
	closed  bool
}

// The protocol's messages.
type hello struct {
	Product     string         `json:"product"`
	Config      product.Config `json:"config"`
	Env         childEnv       `json:"env"`
	MemoryLimit int64          `json:"memory_limit"`
	MaxStack    int            `json:"max_stack"`
	Grace       time.Duration  `json:"grace"`
}

type childEnv struct {
	Hosts             []string `json:"hosts"`
	HTTPPorts         []int    `json:"http_ports"`
	HTTPSPorts        []int    `json:"https_ports"`
	HostResolverRules string   `json:"host_resolver_rules"`
	SPKIHash          string   `json:"spki_hash"`
	CACert            []byte   `json:"ca_cert"`
}

type request struct {
	Test product.TestRequest `json:"test"`
}

type reply struct {
	Ready   bool                `json:"ready,omitempty"`
	Version string              `json:"version,omitempty"`
	Error   string              `json:"error,omitempty"`
	Log     string              `json:"log,omitempty"`
	Result  *product.TestResult `json:"result,omitempty"`
}

// Name implements product.Product.
func (p *Isolated) Name() string { return p.opts.Product }

// Version implements product.Product (the child's answer).
func (p *Isolated) Version() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.version
}

// Start implements product.Product: it starts one child, so that a product
// that cannot start fails the run at once.
func (p *Isolated) Start(ctx context.Context, env *product.Env) error {
	h := &hello{
		Product: p.opts.Product, Config: p.opts.Config,
		Env: childEnv{Hosts: env.Hosts, HTTPPorts: env.HTTPPorts, HTTPSPorts: env.HTTPSPorts,
			HostResolverRules: env.HostResolverRules, SPKIHash: env.SPKIHash, CACert: env.CACert},
		MemoryLimit: p.opts.MemoryLimit, MaxStack: p.opts.MaxStack, Grace: p.opts.Grace / 2,
	}
	p.mu.Lock()
	p.hello = h
	p.logf = env.Logf
	if p.logf == nil {
		p.logf = func(string, ...any) {}
	}
	p.all = map[*child]bool{}
	p.mu.Unlock()
	c, err := p.spawn()
	if err != nil {
		return err
	}
	p.release(c, false)
	return nil
}

// Processes lists the process ids of the live children.
func (p *Isolated) Processes() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	var pids []int
	for c := range p.all {
		pids = append(pids, c.cmd.Process.Pid)
	}
	return pids
}

// Close implements product.Product: every child is ended.
func (p *Isolated) Close() error {
	p.mu.Lock()
	p.closed = true
	var all []*child
	for c := range p.all {
		all = append(all, c)
	}
	p.all = map[*child]bool{}
	p.idle = nil
	p.mu.Unlock()
	for _, c := range all {
		c.kill()
	}
	return nil
}

// RunTest implements product.Product: the test runs in an idle child (a
// new one when none is idle). A child that dies makes the test CRASH,
// with the reason (stack overflow, out of memory, killed by a signal);
// one that does not answer by ctx's deadline (or, without one, the
// harness timeout plus twice the grace) is killed and the test is a
// TIMEOUT. A cancelled ctx (the run was interrupted) ends the test with
// ERROR.
func (p *Isolated) RunTest(ctx context.Context, req product.TestRequest) product.TestResult {
	start := time.Now()
	c, err := p.acquire()
	if err != nil {
		return product.TestResult{Status: product.ERROR, Message: "starting a " + p.opts.Product + " process: " + err.Error()}
	}
	res, healthy := c.run(ctx, req, p.opts.Grace)
	if res.Duration == 0 {
		res.Duration = time.Since(start)
	}
	// A test that timed out or crashed may have left work running
	// (a regular expression backtracking, say): its child is not reused.
	if res.Status == product.TIMEOUT || res.Status == product.CRASH {
		healthy = false
	}
	p.release(c, healthy)
	return res
}

func (p *Isolated) acquire() (*child, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errors.New("product closed")
	}
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return c, nil
	}
	p.mu.Unlock()
	return p.spawn()
}

func (p *Isolated) release(c *child, healthy bool) {
	p.mu.Lock()
	if healthy && !p.closed && c.tests < p.opts.RecycleAfter {
		p.idle = append(p.idle, c)
		p.mu.Unlock()
		return
	}
	delete(p.all, c)
	p.mu.Unlock()
	c.kill()
}

// spawn starts a child and waits for it to be ready.
func (p *Isolated) spawn() (*child, error) {
	p.mu.Lock()
	h, logf := p.hello, p.logf
	p.mu.Unlock()
	if h == nil {
		return nil, errors.New("product used before Start")
	}
	cmd, err := p.opts.Command()
	if err != nil {
		return nil, err
	}
	c, err := startChild(cmd, h, logf)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		c.kill()
		return nil, errors.New("product closed")
	}
	p.all[c] = true
	if p.version == "" {
		p.version = c.version
	}
	p.mu.Unlock()
	return c, nil
}

// child is one child process, running one test at a time.
type child struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	replies chan reply
	exited  chan struct{} // closed when the process has been waited for
	waitErr error
	stderr  *childproc.HeadBuffer
	logf    func(string, ...any)
	version string
	tests   int
	once    sync.Once
}

func startChild(cmd *exec.Cmd, h *hello, logf func(string, ...any)) (*child, error) {
	c := &child{cmd: cmd, replies: make(chan reply, 16), exited: make(chan struct{}), stderr: &childproc.HeadBuffer{Max: 8 << 10}, logf: logf}
	var err error
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go c.read(stdout)
	if err := json.NewEncoder(c.stdin).Encode(h); err != nil {
		c.kill()
		return nil, err
	}
	select {
	case r, ok := <-c.replies:
		if !ok {
			<-c.exited
			return nil, fmt.Errorf("the child process ended at start-up (%v): %s", c.waitErr, c.stderr.Summary())
		}
		if r.Error != "" {
			c.kill()
			return nil, errors.New(r.Error)
		}
		c.version = r.Version
	case <-time.After(time.Minute):
		c.kill()
		return nil, errors.New("the child process did not start within a minute")
	}
	return c, nil
}

// read decodes the child's replies; logs are passed on at once. The
// channel is closed, and the process waited for, when stdout ends.
func (c *child) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 256<<20)
	for sc.Scan() {
		var r reply
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			c.logf("child process: bad reply %.200q: %v", sc.Text(), err)
			continue
		}
		if r.Log != "" {
			c.logf("%s", r.Log)
			continue
		}
		c.replies <- r
	}
	c.waitErr = c.cmd.Wait()
	close(c.exited)
	close(c.replies)
}

// run sends req and waits for its result. healthy is false when the child
// can no longer be used.
func (c *child) run(ctx context.Context, req product.TestRequest, grace time.Duration) (product.TestResult, bool) {
	c.tests++
	c.stderr.Reset()
	if err := json.NewEncoder(c.stdin).Encode(request{Test: req}); err != nil {
		return c.died("sending the test"), false
	}
	// The child runs the test under product.SafeRun with half the grace
	// (see Options.Grace), so it answers before ctx's deadline (the
	// runner's: Timeout + grace) unless it is wedged or dying. Without a
	// deadline the parent waits Timeout + 2*grace.
	start := time.Now()
	limit := req.Timeout + 2*grace
	if dl, ok := ctx.Deadline(); ok {
		limit = time.Until(dl)
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	answer := func(r reply, ok bool) (product.TestResult, bool) {
		if !ok {
			return c.died("running the test"), false
		}
		if r.Result == nil {
			return product.TestResult{Status: product.ERROR, Message: "the child process answered without a result: " + r.Error}, false
		}
		return *r.Result, true
	}
	select {
	case r, ok := <-c.replies:
		return answer(r, ok)
	case <-timer.C:
	case <-ctx.Done():
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			c.kill()
			return product.TestResult{Status: product.ERROR, Message: "run cancelled: " + ctx.Err().Error()}, false
		}
	}
	// Out of time. An answer or a death that raced with the deadline
	// still counts.
	select {
	case r, ok := <-c.replies:
		return answer(r, ok)
	case <-c.exited:
		return c.died("running the test"), false
	default:
	}
	c.kill()
	return product.TestResult{Status: product.TIMEOUT, Message: fmt.Sprintf("the test did not finish: its process did not answer within %v (harness timeout %v) and was killed", time.Since(start).Round(time.Millisecond), req.Timeout)}, false
}

// died describes the death of the child as the test's CRASH, its message
// starting with the reason (CrashReason).
func (c *child) died(doing string) product.TestResult {
	<-c.exited
	msg := fmt.Sprintf("%s: the test's process died while %s (%v)", CrashReason(c.waitErr, c.stderr.String()), doing, c.waitErr)
	if s := c.stderr.Summary(); s != "" {
		msg += ": " + s
	}
	return product.TestResult{Status: product.CRASH, Message: msg, Stack: c.stderr.String()}
}

// CrashReason names why a child process died from its wait error and
// the start of its stderr: "stack overflow", "out of memory", "killed by a
// signal (killed)" (SIGKILL: the kernel's out-of-memory killer or a
// user), "panic", another Go "fatal error: …", or "exit status N"
// (childproc.CrashReason, shared with the browser's renderer processes).
func CrashReason(waitErr error, stderr string) string {
	return childproc.CrashReason(waitErr, stderr)
}

func (c *child) kill() {
	c.once.Do(func() {
		c.stdin.Close()
		if c.cmd.Process != nil {
			c.cmd.Process.Kill()
		}
	})
	<-c.exited
}

// MaybeChild turns the process into a product child when its first
// argument is ChildArg: it serves tests on stdin/stdout and exits. Call it
// first in main (and in TestMain of tests that use isolation).
func MaybeChild() {
	if len(os.Args) < 2 || os.Args[1] != ChildArg {
		return
	}
	out := os.Stdout
	// Stray prints of the product must not corrupt the protocol.
	os.Stdout = os.Stderr
	if err := Serve(os.Stdin, out); err != nil {
		fmt.Fprintln(os.Stderr, "wpt-runner child:", err)
		os.Exit(3)
	}
	os.Exit(0)
}

// Serve is the child's side of the protocol: it reads the hello, starts the
// product and runs the tests it is sent until in ends.
func Serve(in io.Reader, out io.Writer) error {
	dec := json.NewDecoder(bufio.NewReader(in))
	var omu sync.Mutex
	enc := json.NewEncoder(out)
	send := func(r reply) {
		omu.Lock()
		defer omu.Unlock()
		enc.Encode(r)
	}
	var h hello
	if err := dec.Decode(&h); err != nil {
		return fmt.Errorf("reading the hello: %v", err)
	}
	childproc.Limit("wpt-runner child", h.MaxStack, h.MemoryLimit)
	if h.MemoryLimit > 0 {
		// A child is bounded by its memory limit, so it can trade memory
		// for collector time: a page's garbage (sobek copies a regexp's
		// whole subject on each failed sticky match, for example) made the
		// collector a quarter of a test's CPU at the default GOGC of 100.
		// A GOGC in the environment still wins.
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(childGCPercent)
		}
	}
	f, ok := product.Lookup(h.Product)
	if !ok {
		send(reply{Error: fmt.Sprintf("unknown product %q", h.Product)})
		return nil
	}
	p, err := f.New(h.Config)
	if err != nil {
		send(reply{Error: err.Error()})
		return nil
	}
	env, err := h.Env.env(func(format string, args ...any) { send(reply{Log: fmt.Sprintf(format, args...)}) })
	if err != nil {
		send(reply{Error: err.Error()})
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := p.Start(ctx, env); err != nil {
		send(reply{Error: err.Error()})
		return nil
	}
	defer p.Close()
	send(reply{Ready: true, Version: p.Version()})
	for {
		var r request
		if err := dec.Decode(&r); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		res := product.SafeRun(ctx, p, r.Test, h.Grace)
		send(reply{Result: &res})
	}
}

// env rebuilds the runner's product.Env in the child.
// childGCPercent is the GOGC of a child with a memory limit (see Serve).
const childGCPercent = 400

func (e childEnv) env(logf func(string, ...any)) (*product.Env, error) {
	pool := x509.NewCertPool()
	if len(e.CACert) > 0 {
		ca, err := x509.ParseCertificate(e.CACert)
		if err != nil {
			return nil, fmt.Errorf("the server's certificate: %v", err)
		}
		pool.AddCert(ca)
	}
	hosts := map[string]bool{"localhost": true, "127.0.0.1": true}
	for _, h := range e.Hosts {
		hosts[h] = true
	}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		if !hosts[strings.ToLower(strings.TrimSuffix(host, "."))] {
			return nil, fmt.Errorf("host %q does not resolve (only the WPT hosts do)", host)
		}
		var d net.Dialer
		return d.DialContext(ctx, network, net.JoinHostPort("127.0.0.1", port))
	}
	client := &http.Client{
		Transport: &http.Transport{DialContext: dial, TLSClientConfig: &tls.Config{RootCAs: pool}},
		Timeout:   2 * time.Minute,
	}
	return &product.Env{
		Hosts: e.Hosts, HTTPPorts: e.HTTPPorts, HTTPSPorts: e.HTTPSPorts,
		HostResolverRules: e.HostResolverRules, CertPool: pool, SPKIHash: e.SPKIHash, CACert: e.CACert,
		HTTPClient: client, Jobs: 1, Logf: logf,
	}, nil
}
