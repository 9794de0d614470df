// Package weblocks implements the Web Locks API algorithms: lock managers,
// lock requests, the lock task queue and the request() and query() method
// steps, as plain Go that any JavaScript engine can be bound to.
package weblocks
