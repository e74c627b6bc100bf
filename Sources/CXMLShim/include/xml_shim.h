#pragma once
// A narrow C boundary around libxml2's SAX2 parser (Debian's libxml2) for CAML and XML property
// lists: elements, attributes and text reach Swift through three callbacks, with the line and
// column where each start tag ends. Names are qualified ("prefix:local"), namespaces are not
// processed, and namespace declarations come as `xmlns`/`xmlns:p` attributes, first.
// Entities: the predefined ones and character references are expanded; a document that declares
// an entity of its own (internal or external, in its DOCTYPE's internal subset) is refused at the
// declaration (CAPROF_XML_ENTITY_DECLARED), so nothing can expand and nothing outside is read (no
// file, no network); a reference to any other entity is an undeclared entity (libxml2 error 26).
#include <stddef.h>

typedef struct caprof_xml_sink {
    void *context;
    // `attributes` holds name, value, name, value, … (`count` pairs), valid during the call.
    // Returns nonzero to stop parsing (the caller then holds its own reason).
    int (*start_element)(void *context, const char *name, const char *const *attributes, int count,
                         int line, int column);
    void (*end_element)(void *context);
    void (*characters)(void *context, const char *bytes, int length);
} caprof_xml_sink;

// Not a libxml2 code (those are positive): the document declares an entity (`name` holds it).
#define CAPROF_XML_ENTITY_DECLARED (-1)
// Not a libxml2 code: the document declares an attribute list (`<!ATTLIST …>`; `name` holds it).
#define CAPROF_XML_ATTLIST_DECLARED (-2)

typedef struct caprof_xml_error {
    int code;     // libxml2's xmlParserErrors code of the first error (or CAPROF_XML_ENTITY_DECLARED), 0 when there was none
    int line;     // where the parser stood when it found it (1-based)
    int column;
    char name[64]; // the declared entity's name (cut to 63 bytes), for CAPROF_XML_ENTITY_DECLARED
} caprof_xml_error;

// Parses `length` bytes. Returns 0 when the document is well formed and every callback asked to
// go on; otherwise nonzero, with `error` describing the first error, if libxml2 reported one.
int caprof_xml_parse(const unsigned char *bytes, size_t length, const caprof_xml_sink *sink,
                     caprof_xml_error *error);
