package dom

// DOMException names from Web IDL's error names table.
const (
	IndexSizeError             = "IndexSizeError"
	HierarchyRequestError      = "HierarchyRequestError"
	WrongDocumentError         = "WrongDocumentError"
	InvalidCharacterError      = "InvalidCharacterError"
	NoModificationAllowedError = "NoModificationAllowedError"
	NotFoundError              = "NotFoundError"
	NotSupportedError          = "NotSupportedError"
	InUseAttributeError        = "InUseAttributeError"
	InvalidStateError          = "InvalidStateError"
	SyntaxError                = "SyntaxError"
	InvalidModificationError   = "InvalidModificationError"
	NamespaceError             = "NamespaceError"
	InvalidAccessError         = "InvalidAccessError"
	TypeMismatchError          = "TypeMismatchError"
	SecurityError              = "SecurityError"
	NetworkError               = "NetworkError"
	AbortError                 = "AbortError"
	URLMismatchError           = "URLMismatchError"
	QuotaExceededError         = "QuotaExceededError"
	TimeoutError               = "TimeoutError"
	InvalidNodeTypeError       = "InvalidNodeTypeError"
	DataCloneError             = "DataCloneError"
	EncodingError              = "EncodingError"
	NotReadableError           = "NotReadableError"
	UnknownError               = "UnknownError"
	ConstraintError            = "ConstraintError"
	DataError                  = "DataError"
	TransactionInactiveError   = "TransactionInactiveError"
	ReadOnlyError              = "ReadOnlyError"
	VersionError               = "VersionError"
	OperationError             = "OperationError"
	NotAllowedError            = "NotAllowedError"
	OptOutError                = "OptOutError"
)

// ErrorNames lists every name of Web IDL's error names table, in table
// order, with its legacy code (0 when it has none).
var ErrorNames = []struct {
	Name string
	Code int
}{
	{IndexSizeError, 1},
	{HierarchyRequestError, 3},
	{WrongDocumentError, 4},
	{InvalidCharacterError, 5},
	{NoModificationAllowedError, 7},
	{NotFoundError, 8},
	{NotSupportedError, 9},
	{InUseAttributeError, 10},
	{InvalidStateError, 11},
	{SyntaxError, 12},
	{InvalidModificationError, 13},
	{NamespaceError, 14},
	{InvalidAccessError, 15},
	{TypeMismatchError, 17},
	{SecurityError, 18},
	{NetworkError, 19},
	{AbortError, 20},
	{URLMismatchError, 21},
	{QuotaExceededError, 22},
	{TimeoutError, 23},
	{InvalidNodeTypeError, 24},
	{DataCloneError, 25},
	{EncodingError, 0},
	{NotReadableError, 0},
	{UnknownError, 0},
	{ConstraintError, 0},
	{DataError, 0},
	{TransactionInactiveError, 0},
	{ReadOnlyError, 0},
	{VersionError, 0},
	{OperationError, 0},
	{NotAllowedError, 0},
	{OptOutError, 0},
}

// LegacyCodeConstants are the DOMException interface's constants
// (DOMException.INDEX_SIZE_ERR = 1, ...), in declaration order.
var LegacyCodeConstants = []struct {
	Name  string
	Value int
}{
	{"INDEX_SIZE_ERR", 1},
	{"DOMSTRING_SIZE_ERR", 2},
	{"HIERARCHY_REQUEST_ERR", 3},
	{"WRONG_DOCUMENT_ERR", 4},
	{"INVALID_CHARACTER_ERR", 5},
	{"NO_DATA_ALLOWED_ERR", 6},
	{"NO_MODIFICATION_ALLOWED_ERR", 7},
	{"NOT_FOUND_ERR", 8},
	{"NOT_SUPPORTED_ERR", 9},
	{"INUSE_ATTRIBUTE_ERR", 10},
	{"INVALID_STATE_ERR", 11},
	{"SYNTAX_ERR", 12},
	{"INVALID_MODIFICATION_ERR", 13},
	{"NAMESPACE_ERR", 14},
	{"INVALID_ACCESS_ERR", 15},
	{"VALIDATION_ERR", 16},
	{"TYPE_MISMATCH_ERR", 17},
	{"SECURITY_ERR", 18},
	{"NETWORK_ERR", 19},
	{"ABORT_ERR", 20},
	{"URL_MISMATCH_ERR", 21},
	{"QUOTA_EXCEEDED_ERR", 22},
	{"TIMEOUT_ERR", 23},
	{"INVALID_NODE_TYPE_ERR", 24},
	{"DATA_CLONE_ERR", 25},
}

var legacyCodes = func() map[string]int {
	m := make(map[string]int, len(ErrorNames))
	for _, e := range ErrorNames {
		m[e.Name] = e.Code
	}
	return m
}()

// LegacyCode returns the legacy code of an error name (0 when the name has
// none or is not in the table).
func LegacyCode(name string) int { return legacyCodes[name] }

// IsErrorName reports whether name is in Web IDL's error names table.
func IsErrorName(name string) bool {
	_, ok := legacyCodes[name]
	return ok
}

// DOMException is Web IDL's DOMException. Go code returns *DOMException as
// an error; the JS bindings turn it into a JS DOMException object.
type DOMException struct {
	Name    string
	Message string
	// Owner is free for the JavaScript bindings: they keep the object that
	// represents this exception there, so one Go exception is one JS object
	// (a signal's abort reason and the rejection it causes are the same
	// object). Like AbortSignal.Owner, it is set and read on the event loop
	// the exception belongs to.
	Owner any
}

// NewDOMException follows the constructor's argument order
// (new DOMException(message, name)). An empty name means "Error", as the
// constructor's default.
func NewDOMException(message, name string) *DOMException {
	if name == "" {
		name = "Error"
	}
	return &DOMException{Name: name, Message: message}
}

// Error returns "Name: Message" (or just the name when there is no message).
func (e *DOMException) Error() string {
	if e.Message == "" {
		return e.Name
	}
	return e.Name + ": " + e.Message
}

// Code is the legacy code getter: the name's legacy code, or 0.
func (e *DOMException) Code() int { return LegacyCode(e.Name) }

// Is makes errors.Is match DOMExceptions by name:
// errors.Is(err, &DOMException{Name: AbortError}).
func (e *DOMException) Is(target error) bool {
	t, ok := target.(*DOMException)
	return ok && t.Name == e.Name && (t.Message == "" || t.Message == e.Message)
}
