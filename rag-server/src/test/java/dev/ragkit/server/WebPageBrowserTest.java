package dev.ragkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.generation.ExtractiveBackend;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web page in a real browser: headless Chromium (Debian's {@code chromium} and {@code chromium-driver}) driven
 * by Selenium asks a question with the keyboard, waits for the streamed answer and its citation, follows the citation
 * and sees the cited lines highlighted (for a PDF, on the cited page). Screenshots go to {@code target/screenshots/}. Skipped when Chromium or its
 * driver is not installed ({@code .ci/run} installs them on Debian).
 */
final class WebPageBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SHOTS = Path.of("target", "screenshots");

    @TempDir
    Path dir;
    private ServerFixture fixture;
    private WebDriver browser;

    @BeforeEach
    void start() {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "headless Chromium is not installed (needs " + CHROMIUM + " and " + CHROMEDRIVER + "; on Debian: "
                        + "apt-get install chromium chromium-driver); the browser test is skipped");
        fixture = new ServerFixture(dir);
    }

    private void open(boolean tokens) {
        if (tokens) {
            fixture.startWithTokens(new ExtractiveBackend(), b -> { });
        } else {
            fixture.start(new ExtractiveBackend(), b -> b.scope(ServerFixture.ACME, List.of("eng")));
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,900");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString())).usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
        browser.get(fixture.server.url());
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void page_streamsTheAnswer_andACitationOpensTheHighlightedLines() throws IOException {
        open(false);
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("documents"), "keys.md"));

        WebElement question = browser.findElement(By.id("question"));
        question.click();
        question.sendKeys("How often do API keys rotate?", Keys.ENTER);
        WebElement citation = wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("a.citation")));
        assertThat(browser.findElement(By.id("answer")).getText()).contains("ninety days").contains("[1]");
        assertThat(browser.findElement(By.id("action")).getText()).isEqualTo("CITE");
        assertThat(citation.getText()).contains("keys.md").contains("lines");
        shot("answer.png");

        citation.click();
        WebElement marked = wait.until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#viewer-text .hl")));
        assertThat(browser.findElements(By.cssSelector("#viewer-text .hl")).stream().map(WebElement::getText)
                .reduce("", String::concat)).contains("ninety days");
        assertThat(marked.getText()).isNotBlank();
        assertThat(browser.findElement(By.id("viewer-title")).getText()).contains("keys.md");
        shot("citation.png");

        browser.manage().window().setSize(new Dimension(390, 844));
        Object overflow = ((JavascriptExecutor) browser).executeScript(
                "return document.documentElement.scrollWidth > document.documentElement.clientWidth;");
        assertThat(overflow).as("no sideways scrolling on a phone-sized screen").isEqualTo(false);
        shot("phone.png");
    }

    @Test
    void page_pdfCitation_opensTheCitedPage() throws IOException {
        fixture.withOfficeFiles();
        open(false);
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("documents"), "hr-handbook.pdf"));
        WebElement question = browser.findElement(By.id("question"));
        question.click();
        question.sendKeys("How many weeks of paid parental leave do parents receive?", Keys.ENTER);
        WebElement citation = wait.until(ExpectedConditions.elementToBeClickable(By.xpath(
                "//a[contains(@class, 'citation') and contains(., 'hr-handbook.pdf')]")));
        assertThat(citation.getText()).contains("page 3");
        citation.click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#viewer-text .hl")));
        List<WebElement> marked = browser.findElements(By.cssSelector("#viewer-text .hl"));
        assertThat(marked).isNotEmpty().allSatisfy(line -> assertThat(line.getText()).startsWith("p3 "));
        assertThat(marked.stream().map(WebElement::getText).reduce("", String::concat))
                .contains(OfficeFiles.LEAVE);
        assertThat(browser.findElement(By.id("viewer-text")).getText()).contains("Welcome to the company.");
        assertThat(browser.findElement(By.id("viewer-title")).getText()).contains("hr-handbook.pdf");
        shot("pdf-citation.png");
    }

    @Test
    void page_withTokens_asksForOne_andShowsOnlyThatTokensDocuments() throws IOException {
        open(true);
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        WebElement token = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token")));
        token.sendKeys(ServerFixture.GLOBEX_TOKEN, Keys.TAB);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("documents"), "vacation.md"));
        assertThat(browser.findElement(By.id("documents")).getText()).doesNotContain("keys.md")
                .doesNotContain("payroll.md");

        // a link to another tenant's document, typed by hand, opens nothing
        browser.get(fixture.server.url() + "#view=" + fixture.documentId(ServerFixture.ACME, "keys.md")
                + "&lines=1-9");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("viewer-title"), "Not Found"));
        assertThat(browser.findElement(By.id("viewer-text")).getText()).isEmpty();
        assertThat(browser.getPageSource()).doesNotContain("ninety");
        shot("other-tenant.png");
    }

    private void shot(String name) throws IOException {
        Files.createDirectories(SHOTS);
        File file = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(file.toPath(), SHOTS.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
}
