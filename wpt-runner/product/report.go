package product

import (
	"encoding/json"
	"fmt"
)

// testharness.js numeric statuses: a Test's status (Test.statuses) and the
// harness status (TestsStatus.statuses).
var (
	subtestStatuses = map[int]Status{0: PASS, 1: FAIL, 2: TIMEOUT, 3: NOTRUN, 4: PRECONDITION_FAILED}
	harnessStatuses = map[int]Status{0: OK, 1: ERROR, 2: TIMEOUT, 3: PRECONDITION_FAILED}
)

// SubtestStatus maps a testharness.js Test status number to its name.
func SubtestStatus(n int) (Status, error) {
	if s, ok := subtestStatuses[n]; ok {
		return s, nil
	}
	return "", fmt.Errorf("unknown testharness.js subtest status %d", n)
}

// HarnessStatus maps a testharness.js harness status number to its name.
func HarnessStatus(n int) (Status, error) {
	if s, ok := harnessStatuses[n]; ok {
		return s, nil
	}
	return "", fmt.Errorf("unknown testharness.js harness status %d", n)
}

type rawReport struct {
	Status  *int      `json:"status"`
	Message *string   `json:"message"`
	Stack   *string   `json:"stack"`
	Tests   []rawTest `json:"tests"`
}

type rawTest struct {
	Name    string  `json:"name"`
	Status  *int    `json:"status"`
	Message *string `json:"message"`
	Stack   *string `json:"stack"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// ParseReport decodes the JSON that the runner's testharnessreport.js hands
// to products (see Product) into a TestResult, mapping numeric statuses.
func ParseReport(data []byte) (TestResult, error) {
	var r rawReport
	if err := json.Unmarshal(data, &r); err != nil {
		return TestResult{}, fmt.Errorf("harness report: %v", err)
	}
	if r.Status == nil {
		return TestResult{}, fmt.Errorf("harness report: no status")
	}
	hs, err := HarnessStatus(*r.Status)
	if err != nil {
		return TestResult{}, err
	}
	res := TestResult{Status: hs, Message: str(r.Message), Stack: str(r.Stack)}
	for _, t := range r.Tests {
		if t.Status == nil {
			return TestResult{}, fmt.Errorf("harness report: subtest %q has no status", t.Name)
		}
		ss, err := SubtestStatus(*t.Status)
		if err != nil {
			return TestResult{}, fmt.Errorf("subtest %q: %v", t.Name, err)
		}
		res.Subtests = append(res.Subtests, SubtestResult{Name: t.Name, Status: ss, Message: str(t.Message), Stack: str(t.Stack)})
	}
	return res, nil
}
