// Package idl tokenizes, parses, validates, writes and formats Web IDL.
//
// It reads the whole current Web IDL grammar: interfaces, interface mixins
// and their partial forms, callback functions and callback interfaces,
// namespaces, dictionaries, enumerations, typedefs and includes statements;
// every member (constants, attributes, operations including special ones,
// constructors, iterable, async_iterable with arguments, maplike, setlike);
// every type (with unsigned/unrestricted, bigint, the buffer types including
// Float16Array, Promise, sequence, async_sequence, FrozenArray,
// ObservableArray, record, unions, nullables and type-level extended
// attributes); and extended attributes in all their forms.
//
// # Parsing
//
// Parse returns a *File whose Definitions are *Interface (Mixin set for
// "interface mixin"), *CallbackInterface, *Callback, *Namespace,
// *Dictionary, *Enum, *Typedef and *Includes values. Interface-like
// definitions hold Members: *Attribute, *Operation, *Constant,
// *Constructor, *Iterable, *Maplike and *Setlike; dictionaries hold
// *Field values. Types are *Type values, arguments *Argument values,
// extended attributes *ExtendedAttribute values (with an *ExtAttrRHS for
// "=..." forms), and constant and default values *Value values. Every node
// has a Pos (file, line, column, byte offset) and keeps the tokens it was
// built from, trivia included.
//
// # Memory
//
// The tree is compact, because tools keep the trees of whole corpora (the
// 334 files of @webref/idl for "webidl check"):
//   - The File shares the source bytes given to Parse (names and token
//     texts are substrings of them; the caller must not modify them).
//     Sources are limited to MaxSourceSize (256 MiB).
//   - A Token is 8 bytes without pointers: the offset, and the length,
//     kind and keyword flag packed in one word. Its trivia is the text
//     between the previous token and itself, and its line and column come
//     from a table of line starts that File.Position builds on first use
//     (4 bytes per line).
//   - Nodes refer to tokens by TokenRef, an int32 index into File.Tokens
//     (File.Token, File.Text, File.Trivia read them), and locate themselves
//     by Loc (the *File and a byte offset, 16 bytes) rather than a Position
//     (40 bytes); Pos computes the Position when asked.
//   - Tokens that the grammar places next to others are derived rather
//     than stored: a Type keeps only its first token (Type.Tokens), an
//     Argument its name (Argument.Tokens), an extended attribute list
//     none (its brackets surround its attributes: ExtAttrList.Tokens).
//     Type.Context is a one-byte TypeContext.
//   - What most nodes lack is kept behind a pointer or in spare bits, not
//     inline: an ExtAttrList is one pointer (List and SetList read and
//     replace the attributes), a Type's subtypes too (Type.Subtypes), and
//     its generic name is a 3-bit index among the six generic types
//     (Type.Generic). An Argument does not store its name but reads it
//     from its name token (Argument.Name).
//   - A Parser shared by many files allocates nodes in chunks; Parse, for
//     one file, allocates them one by one, so no half-filled chunk
//     outlives the parse.
//
// Parsing and validating keep live, beyond the input itself, about 6.0
// bytes per input byte on the @webref/idl corpus with one Parser (as
// "webidl check" does) and 5.6 with Parse for each file, and allocate
// about 8.7 and 8.4 bytes per byte in all (garbage included: a bound on
// the peak); with the first representation it was 20 live and 24 at
// peak. TestMemoryPerInputByte keeps the corpus within 10. Input made of
// nothing but short declarations costs more per byte, because each node
// has a fixed size whatever the length of its text: in one operation of
// 300,000 arguments "long a123456, " (13 bytes on average), each argument
// is three tokens (24 bytes), an Argument node (48), a Type node (56,
// which takes 64 in the allocator's size classes) and a pointer in the
// argument slice (8): 144 bytes, and 10.6 times its text live (14.6
// allocated; 36 and 43 at first, 16.4 and 23.4 before the optional parts
// of nodes went behind pointers). TestMemoryPerInputByte keeps it within
// 11. What remains in every node is its Loc (16 bytes: the *File and an
// offset) and, for a Type, its name (16); going further would take nodes
// that locate themselves without a *File pointer.
//
// On syntax errors Parse still returns every definition it could parse,
// with an ErrorList of *Error values: position, message (the messages of
// webidl2.js), the source line and a caret column. It never panics and
// bounds nesting depth and error count.
//
// # JSON
//
// File.MarshalJSON (and AppendJSON, DefinitionJSON, MemberJSON, TypeJSON)
// encode the AST exactly as JSON.stringify(webidl2.parse(text)) does with
// webidl2.js 24.x: same node types, field names and order, idlType nesting,
// extAttrs, rhs and default values, so the output feeds the JavaScript
// tooling of the web platform unchanged. (Names lose the underscore that
// escapes them, as in webidl2.js; the tokens keep it.)
//
// # Writing and formatting
//
// Write rebuilds the source text from the AST and its tokens:
// Write(Parse(x)) == x byte for byte. Format prints the canonical form:
// consistent spacing and indentation, comments kept.
//
// # Semantics
//
// Analyze resolves a set of files once, like go/types does for Go: the
// returned *Analysis looks definitions up by name (Lookup, with the names
// Web IDL defines itself built in), merges partial definitions and
// included mixins (Parts, Members, DictionaryParts), follows typedefs
// (Underlying, Resolve; TypedefCycles of any length), classifies types
// (CategoryOf, the categories of the distinguishability table), decides
// Distinguishable, and computes overload sets, effective overload sets and
// distinguishing argument indexes (OverloadSets, OverloadSet.Effective,
// DistinguishingIndex). It is immutable and safe for concurrent use.
// Validate and the bindings generator both ask it, so the package holds
// one copy of these semantics.
//
// # Validation
//
// Validate checks one or more files together after merging partial
// definitions, mixins (through includes statements) and inherited
// dictionaries: duplicate definitions and members, undefined type
// references, overloads that cannot be distinguished or that mix Promise
// and non-Promise results, dictionary argument optionality and defaults,
// nullable dictionaries and Promises, missing [Exposed], unknown or
// malformed extended attributes, dictionaries that include themselves,
// union member types that are not distinguishable, and more; Rules lists
// every rule with its severity. Check returns the same problems and an
// error when one of them is an error, for tools to share one verdict. Names the Web IDL standard defines itself (BufferSource,
// ArrayBufferView, Function, DOMException, ...) are known without
// webidl.idl.
//
// # Specifications
//
// Spec snapshot: the Web IDL Living Standard (https://webidl.spec.whatwg.org/)
// as of 2026-11-23, the date this package was last checked against it; the
// JSON and the fixture parity follow webidl2.js 24.5.0.
//
// Deliberate deviations:
//   - Names are resolved within the given files (plus the names Web IDL
//     defines itself); webidl2.js does not resolve them at all.
//   - Rules that published specifications break are warnings (Rules says
//     which), except dictionary-includes-itself and
//     indistinguishable-union-members, which stay errors: the bindings
//     could not convert such types.
//   - Two interface types are told apart by name and inheritance only ("no
//     single platform object implements both" is not otherwise knowable
//     from IDL).
//   - Syntax errors are recovered from: Parse returns every definition it
//     could parse, where webidl2.js stops at the first error.
package idl
