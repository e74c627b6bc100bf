#include "xml_shim.h"
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/entities.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// What the callbacks share; the parser context's `_private` points to it (the SAX2 defaults kept
// for entities and the DTD need the context itself as their user data).
typedef struct state {
    const caprof_xml_sink *sink;
    caprof_xml_error *error;
    int stopped;
} state;

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static void init_parser(void) { xmlInitParser(); }

// "prefix:local", or a copy of `local`; NULL only when out of memory.
static char *qualified(const xmlChar *prefix, const xmlChar *local) {
    size_t pl = prefix ? strlen((const char *)prefix) : 0, ll = strlen((const char *)local);
    char *s = malloc(pl + ll + 2);
    if (!s) return NULL;
    if (pl) { memcpy(s, prefix, pl); s[pl] = ':'; memcpy(s + pl + 1, local, ll + 1); }
    else memcpy(s, local, ll + 1);
    return s;
}

static void start_element(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                          const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
                          int nb_attributes, int nb_defaulted, const xmlChar **attributes) {
    (void)uri; (void)nb_defaulted;
    xmlParserCtxtPtr ctxt = ctx;
    state *st = ctxt->_private;
    if (!st || st->stopped) return;
    int count = nb_namespaces + nb_attributes;
    char **strings = calloc((size_t)count * 2 + 1, sizeof(char *));
    char *name = qualified(prefix, localname);
    int ok = strings && name;
    for (int i = 0; ok && i < nb_namespaces; i++) {
        const xmlChar *p = namespaces[2 * i], *value = namespaces[2 * i + 1];
        strings[2 * i] = qualified(p ? (const xmlChar *)"xmlns" : NULL, p ? p : (const xmlChar *)"xmlns");
        strings[2 * i + 1] = strdup(value ? (const char *)value : "");
        ok = strings[2 * i] && strings[2 * i + 1];
    }
    for (int i = 0; ok && i < nb_attributes; i++) {
        const xmlChar **a = attributes + 5 * i;   // localname, prefix, URI, value, end of value
        int k = 2 * (nb_namespaces + i);
        size_t n = (size_t)(a[4] - a[3]);
        strings[k] = qualified(a[1], a[0]);
        strings[k + 1] = malloc(n + 1);
        ok = strings[k] && strings[k + 1];
        if (ok) { memcpy(strings[k + 1], a[3], n); strings[k + 1][n] = 0; }
    }
    if (!ok) {
        if (st->error->code == 0) st->error->code = XML_ERR_NO_MEMORY;
        st->stopped = 1;
        xmlStopParser(ctxt);
    } else if (st->sink->start_element(st->sink->context, name, (const char *const *)strings, count,
                                       xmlSAX2GetLineNumber(ctxt), xmlSAX2GetColumnNumber(ctxt))) {
        st->stopped = 1;
        xmlStopParser(ctxt);
    }
    if (strings) for (int i = 0; i < 2 * count; i++) free(strings[i]);
    free(strings);
    free(name);
}

static void end_element(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    (void)localname; (void)prefix; (void)uri;
    xmlParserCtxtPtr ctxt = ctx;
    state *st = ctxt->_private;
    if (st && !st->stopped) st->sink->end_element(st->sink->context);
}

// Text, whitespace between elements and CDATA sections alike: all of them are character data.
static void characters(void *ctx, const xmlChar *bytes, int length) {
    xmlParserCtxtPtr ctxt = ctx;
    state *st = ctxt->_private;
    if (st && !st->stopped) st->sink->characters(st->sink->context, (const char *)bytes, length);
}

// Only the predefined entities (&lt; &gt; &amp; &quot; &apos;); character references never reach
// here. Nothing the document declares is ever found, since nothing it declares is kept.
static xmlEntityPtr get_entity(void *ctx, const xmlChar *name) {
    (void)ctx;
    return xmlGetPredefinedEntity(name);
}

// Every entity declaration, internal or external, general or parameter, stops the parse with
// CAPROF_XML_ENTITY_DECLARED at its place. CAML and property lists never declare entities, and an
// internal entity referenced many times (or entities nested in each other) lets a small file
// expand to gigabytes: libxml2 refuses only exponential nesting (error 89), not a flat fan-out of
// 10 KB entities referenced 20,000 times. External ones would read files or URLs the document
// names. Refusing the declaration itself costs nothing and leaves no expansion to budget.
static void refuse(void *ctx, const xmlChar *name, int code) {
    xmlParserCtxtPtr ctxt = ctx;
    state *st = ctxt->_private;
    if (!st || st->stopped) return;
    if (st->error->code == 0) {
        st->error->code = code;
        st->error->line = xmlSAX2GetLineNumber(ctxt);
        st->error->column = xmlSAX2GetColumnNumber(ctxt);
        size_t n = name ? strlen((const char *)name) : 0;
        if (n >= sizeof st->error->name) n = sizeof st->error->name - 1;
        if (n) memcpy(st->error->name, name, n);
        st->error->name[n] = 0;
    }
    st->stopped = 1;
    xmlStopParser(ctxt);
}

static void entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
                        const xmlChar *system_id, xmlChar *content) {
    (void)type; (void)public_id; (void)system_id; (void)content;
    refuse(ctx, name, CAPROF_XML_ENTITY_DECLARED);
}

// An attribute-list declaration stops the parse too (CAPROF_XML_ATTLIST_DECLARED): its default
// value is given to every element it names that lacks the attribute, so one 10 KB default on
// CALayer turned 357 KB of CAML into 6.7 MB of layer names (a fuzz finding); CAML and plists never
// declare one. The callback owns the enumeration libxml2 hands it.
static void attribute_decl(void *ctx, const xmlChar *elem, const xmlChar *fullname, int type, int def,
                           const xmlChar *default_value, xmlEnumerationPtr tree) {
    (void)elem; (void)type; (void)def; (void)default_value;
    if (tree) xmlFreeEnumeration(tree);
    refuse(ctx, fullname, CAPROF_XML_ATTLIST_DECLARED);
}

// An unparsed (NDATA) entity is refused like any other entity declaration.
static void unparsed_entity_decl(void *ctx, const xmlChar *name, const xmlChar *public_id,
                                 const xmlChar *system_id, const xmlChar *notation) {
    (void)public_id; (void)system_id; (void)notation;
    refuse(ctx, name, CAPROF_XML_ENTITY_DECLARED);
}

static xmlParserInputPtr resolve_entity(void *ctx, const xmlChar *public_id, const xmlChar *system_id) {
    (void)ctx; (void)public_id; (void)system_id;
    return NULL;
}

// The first error (warnings are not errors), where the parser stood when it found it.
static void structured_error(void *ctx, xmlErrorPtr e) {
    xmlParserCtxtPtr ctxt = ctx;
    if (!e || e->level < XML_ERR_ERROR || !ctxt) return;
    state *st = ctxt->_private;
    if (!st || st->error->code != 0) return;
    st->error->code = e->code ? e->code : XML_ERR_INTERNAL_ERROR;
    st->error->line = xmlSAX2GetLineNumber(ctxt);
    st->error->column = xmlSAX2GetColumnNumber(ctxt);
}

int caprof_xml_parse(const unsigned char *bytes, size_t length, const caprof_xml_sink *sink,
                     caprof_xml_error *error) {
    pthread_once(&init_once, init_parser);
    memset(error, 0, sizeof *error);
    if (length > INT_MAX) { error->code = XML_ERR_INTERNAL_ERROR; return 1; }
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    xmlSAXVersion(&sax, 2);
    sax.startElementNs = start_element;
    sax.endElementNs = end_element;
    sax.characters = characters;
    sax.ignorableWhitespace = characters;
    sax.cdataBlock = characters;
    sax.getEntity = get_entity;
    sax.resolveEntity = resolve_entity;
    sax.entityDecl = entity_decl;
    sax.unparsedEntityDecl = unparsed_entity_decl;
    sax.attributeDecl = attribute_decl;
    sax.externalSubset = NULL;   // a DOCTYPE's external DTD is never loaded
    sax.serror = structured_error;
    sax.error = NULL;
    sax.warning = NULL;
    sax.fatalError = NULL;
    sax.comment = NULL;
    sax.processingInstruction = NULL;
    // The first bytes go with the context, so libxml2 sees a byte-order mark or an XML
    // declaration's encoding before it reads the rest.
    int head = length < 4 ? (int)length : 4;
    xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&sax, NULL, (const char *)bytes, head, NULL);
    if (!ctxt) { error->code = XML_ERR_NO_MEMORY; return 1; }
    state st = { sink, error, 0 };
    ctxt->_private = &st;
    // XML_PARSE_NOENT substitutes the predefined entities in attribute values too (without it
    // libxml2 hands `&amp;` on as `&#38;`); no declared entity ever exists to substitute.
    xmlCtxtUseOptions(ctxt, XML_PARSE_NOENT | XML_PARSE_NONET);
    // In pieces: libxml2 refuses one chunk over 10,000,000 bytes (XML_MAX_LOOKUP_LIMIT, error 1)
    // unless XML_PARSE_HUGE lifts every other limit too; the caller bounds the file's size.
    const size_t piece = 1 << 20;
    size_t at = (size_t)head;
    do {
        size_t n = length - at < piece ? length - at : piece;
        int last = at + n == length;
        xmlParseChunk(ctxt, (const char *)bytes + at, (int)n, last);
        at += n;
    } while (at < length && !st.stopped && ctxt->wellFormed);
    int failed = st.stopped || error->code != 0 || !ctxt->wellFormed;
    if (failed && error->code == 0 && !st.stopped) {
        error->code = ctxt->errNo ? ctxt->errNo : XML_ERR_INTERNAL_ERROR;
        error->line = xmlSAX2GetLineNumber(ctxt);
        error->column = xmlSAX2GetColumnNumber(ctxt);
    }
    if (ctxt->myDoc) xmlFreeDoc(ctxt->myDoc);   // SAX2's document, which holds the declarations
    xmlFreeParserCtxt(ctxt);
    return failed;
}
