package bindings

import (
	"time"

	"github.com/grafana/sobek"
)

// nowMillis is performance.now(): milliseconds since the realm's time
// origin on the loop's clock, coarsened to 5 microseconds.
func (r *Realm) nowMillis() float64 {
	d := (r.host.now() - r.timeOrigin).Truncate(5 * time.Microsecond)
	return float64(d) / float64(time.Millisecond)
}

func (p *performanceImpl) WebIDLInterface() string { return "Performance" }

type performanceImpl struct {
	*eventTargetImpl
}

func (p *performanceImpl) Now() (float64, error) { return p.realm.nowMillis(), nil }

func (p *performanceImpl) TimeOrigin() (float64, error) {
	return float64(p.realm.wallOrigin.UnixMicro()) / 1000, nil
}

// toJSON(): the [Default] toJSON steps (the attributes timeOrigin).
func (p *performanceImpl) ToJSON() (*sobek.Object, error) {
	o := p.realm.vm.NewObject()
	t, _ := p.TimeOrigin()
	_ = o.Set("timeOrigin", t)
	return o, nil
}

// performanceImpl implements Performance.
var _ PerformanceMethods = (*performanceImpl)(nil)
