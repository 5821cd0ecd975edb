/**
 * A {@link dev.ragkit.store.DocumentStore} on Apache SolrCloud ({@link dev.ragkit.store.solr.SolrDocumentStore},
 * provider id {@code solr}), with the config set it needs ({@link dev.ragkit.store.solr.SolrConfigSet}).
 */
@NullMarked
package dev.ragkit.store.solr;

import org.jspecify.annotations.NullMarked;
