package dev.ragkit.documents;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class ParserMessagesTest {

    @Test
    void wrappedExceptionNames_areDropped_andClassesLoseTheirPackages() {
        IOException wrapped = new IOException(new IllegalStateException("org.apache.xmlbeans.XmlException: error: "
                + "unexpected end of file"));
        IllegalStateException cast = new IllegalStateException("class org.apache.pdfbox.cos.COSArray cannot be cast"
                + " to class org.apache.pdfbox.cos.COSDictionary");

        assertThat(ParserMessages.reason(wrapped)).isEqualTo("error: unexpected end of file");
        assertThat(ParserMessages.reason(cast)).isEqualTo("class COSArray cannot be cast to class COSDictionary");
    }

    @Test
    void aPlainMessageStaysAsItIs_andNoMessageGivesTheExceptionsName() {
        assertThat(ParserMessages.reason(new IOException("Page tree root must be a dictionary")))
                .isEqualTo("Page tree root must be a dictionary");
        assertThat(ParserMessages.reason(new NullPointerException())).isEqualTo("NullPointerException");
    }
}
