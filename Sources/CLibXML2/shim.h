// libxml2's HTML parser and tree API.
// libxml2 built with ICU pulls in ICU headers that clash with Foundation's own ICU copy.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>

// xmlFree is a global function pointer, which Swift 6 treats as unsafe shared state.
static inline void scrollback_xmlFree(void *pointer) { xmlFree(pointer); }
