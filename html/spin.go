package html

import "runtime"

func spinYield() { runtime.Gosched() }
