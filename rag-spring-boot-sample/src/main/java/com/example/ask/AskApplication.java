package com.example.ask;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A Spring Boot application; RagKit's starter builds the pipeline from application.properties. */
@SpringBootApplication
public class AskApplication {

    /** @param args command-line arguments, e.g. --ragkit.ingest.paths=/srv/handbook */
    public static void main(String[] args) {
        SpringApplication.run(AskApplication.class, args);
    }
}
