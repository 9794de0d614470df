package storage

import (
	"errors"
	"fmt"
	"sort"
)

// ErrInvalidBucketName is wrapped by errors for names the Storage Buckets
// API rejects (its binding throws a TypeError).
var ErrInvalidBucketName = errors.New("storage: invalid bucket name")

// ValidateBucketName is the Storage Buckets API's "validate a bucket name":
// a name is valid if it is 1 to 64 characters long, made only of lowercase
// ASCII letters, ASCII digits, "-" and "_", and does not start with "-" or
// "_".
func ValidateBucketName(name string) error {
	// 1. If name contains any code point that is not ASCII lower alpha,
	//    ASCII digit, U+005F (_), or U+002D(-), then return false.
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return fmt.Errorf("%w %q: only lowercase ASCII letters, digits, '-' and '_' are allowed", ErrInvalidBucketName, name)
		}
	}
	// 2. If name's code point length is 0 or exceeds 64, then return false.
	if len(name) == 0 || len(name) > 64 {
		return fmt.Errorf("%w %q: length must be 1 to 64", ErrInvalidBucketName, name)
	}
	// 3. If name begins with U+005F (_) or U+002D(-), then return false.
	if name[0] == '_' || name[0] == '-' {
		return fmt.Errorf("%w %q: must not start with '-' or '_'", ErrInvalidBucketName, name)
	}
	// 4. Return true.
	return nil
}

// OpenBucket returns the named bucket of the shelf, creating it if needed
// (the in-parallel part of StorageBucketManager.open()). The name must be
// valid; "default" names the default bucket.
func (s *Shelf) OpenBucket(name string) (*Bucket, error) {
	if err := ValidateBucketName(name); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.bmap[name]
	if b == nil {
		b = createAStorageBucket(s, name, s.typ)
		s.bmap[name] = b
		if name != DefaultBucket {
			s.pin() // a named bucket persists until deleted
		}
	}
	return b, nil
}

// DeleteBucket removes a named bucket (StorageBucketManager.delete()). The
// default bucket cannot be deleted. It reports whether a bucket was removed.
func (s *Shelf) DeleteBucket(name string) (bool, error) {
	if err := ValidateBucketName(name); err != nil {
		return false, err
	}
	if name == DefaultBucket {
		return false, fmt.Errorf("%w: the default bucket cannot be deleted", ErrInvalidBucketName)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.bmap[name]
	delete(s.bmap, name)
	if ok {
		s.unpin()
	}
	return ok, nil
}

// BucketNames lists the shelf's bucket names, sorted (StorageBucketManager.keys()).
func (s *Shelf) BucketNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.bmap))
	for n := range s.bmap {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
