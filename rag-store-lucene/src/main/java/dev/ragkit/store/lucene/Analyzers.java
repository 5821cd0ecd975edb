package dev.ragkit.store.lucene;

import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.de.GermanAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.es.SpanishAnalyzer;
import org.apache.lucene.analysis.fr.FrenchAnalyzer;
import org.apache.lucene.analysis.it.ItalianAnalyzer;
import org.apache.lucene.analysis.nl.DutchAnalyzer;
import org.apache.lucene.analysis.pt.PortugueseAnalyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;

/** The analyzers a language name selects: Lucene's language analyzers (stemming, stop words) or none. */
final class Analyzers {
    private static final Map<String, Supplier<Analyzer>> BY_LANGUAGE = Map.of(
            "en", EnglishAnalyzer::new, "de", GermanAnalyzer::new, "fr", FrenchAnalyzer::new,
            "es", SpanishAnalyzer::new, "it", ItalianAnalyzer::new, "nl", DutchAnalyzer::new,
            "pt", PortugueseAnalyzer::new, "standard", StandardAnalyzer::new);

    private Analyzers() {
    }

    static String normalise(String language) {
        return language.strip().toLowerCase(Locale.ROOT);
    }

    static Analyzer forLanguage(String language) {
        Supplier<Analyzer> analyzer = BY_LANGUAGE.get(normalise(language));
        if (analyzer == null) {
            throw new IllegalArgumentException("no analyzer for language '" + language + "'; use one of "
                    + new java.util.TreeSet<>(BY_LANGUAGE.keySet()) + ", or analyzer(..) with your own");
        }
        return analyzer.get();
    }
}
