package report

import "runtime"

func runtimeArch() string { return runtime.GOARCH }
