/**
 * Retrieval quality evaluation on BEIR-layout test collections.
 *
 * <p>{@link dev.ragkit.eval.BeirDataset} reads {@code corpus.jsonl}, {@code queries.jsonl} and
 * {@code qrels/<split>.tsv}; {@link dev.ragkit.eval.RetrievalMetrics} computes nDCG@k (trec_eval's
 * {@code ndcg_cut}, linear gain), Recall@k and MRR@k; {@link dev.ragkit.eval.RetrievalEvaluator} indexes a
 * dataset into a {@link dev.ragkit.store.DocumentStore} and runs any {@link dev.ragkit.eval.Ranker} over its
 * judged queries, producing an {@link dev.ragkit.eval.EvaluationReport}.
 */
@NullMarked
package dev.ragkit.eval;

import org.jspecify.annotations.NullMarked;
