// Package html models the HTML Standard's processing concepts: user
// agents, agents and event loops, parallel queues, environment settings
// objects, documents and navigables. It is plain Go and never imports a
// JavaScript engine.
package html
