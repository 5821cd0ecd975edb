package com.example.ask;

import dev.ragkit.RagPipeline;
import dev.ragkit.RagRequest;
import dev.ragkit.RagResponse;
import dev.ragkit.ResponseFlag;
import dev.ragkit.grounding.Citation;
import dev.ragkit.store.Scope;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /ask?q=...}: an answer from the documents, with the lines it cites, or a hand-off to a person. */
@RestController
public class AskController {
    private final RagPipeline rag;

    /** @param rag the pipeline the starter built */
    public AskController(RagPipeline rag) {
        this.rag = rag;
    }

    /**
     * What the client gets.
     *
     * @param answer     the answer (for ROUTE, what to tell the user)
     * @param action     CITE (answered from the documents) or ROUTE (passed on to a person)
     * @param confidence 0 to 100
     * @param citations  the cited lines, e.g. docs/keys.md:3-4
     * @param model      the model that wrote the answer, or "extractive"
     * @param extractive true when no model wrote it: the answer quotes the documents
     */
    public record Answer(String answer, String action, int confidence, List<String> citations, String model,
            boolean extractive) {
    }

    /**
     * @param question the question
     * @return the answer
     */
    @GetMapping("/ask")
    public Answer ask(@RequestParam("q") String question) {
        RagResponse r = rag.ask(RagRequest.of(question, Scope.of("default")));
        return new Answer(r.answer(), r.action().name(), r.confidence().overall(),
                r.citations().stream().map(Citation::location).toList(), r.modelUsed(),
                r.flags().contains(ResponseFlag.EXTRACTIVE_ANSWER));
    }
}
