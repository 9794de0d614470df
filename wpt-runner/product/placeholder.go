package product

import "context"

// The "go" product stays a placeholder until wpt-runner/goproduct registers
// the real engine (its Register call replaces this one).
func init() {
	Register(Factory{
		Name:        "go",
		Placeholder: true,
		New:         func(Config) (Product, error) { return placeholder{}, nil },
	})
}

type placeholder struct{}

func (placeholder) Name() string                      { return "go" }
func (placeholder) Start(context.Context, *Env) error { return nil }
func (placeholder) Version() string                   { return "placeholder" }
func (placeholder) Close() error                      { return nil }
func (placeholder) RunTest(context.Context, TestRequest) TestResult {
	return TestResult{Status: ERROR, Message: "go product not built yet"}
}
