package dev.ragkit.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28: an address that cannot be served says why — an invalid or unknown address, a port in use, a port that
 * needs privileges, an address of another machine — each with its own fix, never "choose another port" for all.
 */
final class RagMcpServerBindTest {
    private static final String TOKEN = "0123456789abcdef0123456789abcdef";

    @TempDir
    Path root;
    private McpFixture fixture;

    @BeforeEach
    void index() {
        fixture = new McpFixture(root);
    }

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    void numbersThatAreNotAnIpv4Address_areRefusedAsAnInvalidAddress() {
        for (String host : new String[] {"256.1.1.1", "1.2.3", "10.0.0.0.1", "1..2.3"}) {
            assertThatThrownBy(() -> McpHttpSettings.builder().address(host, 80))
                    .as(host).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("'" + host + "' is not a valid IPv4 address (four numbers from 0 to 255)");
        }
        assertThat(McpHttpSettings.builder().address("127.0.0.1", 80).build().host()).isEqualTo("127.0.0.1");
    }

    @Test
    void aNameNoHostHas_isAnInvalidAddressNotABusyPort() {
        assertThatThrownBy(() -> McpHttpSettings.builder().address("no-such-host.invalid", 8808).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'no-such-host.invalid' is not a valid address")
                .hasMessageContaining("127.0.0.1").hasMessageNotContaining("port");
    }

    @Test
    void aPortInUse_saysSoAndToChooseAnotherPort() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = taken.getLocalPort();

            assertThatThrownBy(() -> RagMcpServer.http(fixture.tools(), McpHttpSettings.loopback("127.0.0.1", port)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot serve MCP on 127.0.0.1:" + port + ": port " + port + " is in use by another "
                            + "program; choose another port (0 picks a free one)");
        }
    }

    @Test
    void anAddressOfAnotherMachine_saysItIsNotThisMachinesNotThatThePortIsTaken() {
        // 192.0.2.1 is in TEST-NET-1 (RFC 5737): documentation only, never a local address
        McpHttpSettings settings = McpHttpSettings.builder().address("192.0.2.1", 8808).allowRemote(true)
                .bearerToken(TOKEN).build();

        assertThatThrownBy(() -> RagMcpServer.http(fixture.tools(), settings))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("192.0.2.1 is not an address of this machine")
                .hasMessageNotContaining("in use").hasMessageNotContaining("choose another port");
    }

    @Test
    void aLowPortWithoutPrivileges_saysSo() {
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 80));
            Assumptions.abort("this user may open port 80 (root, or unprivileged ports start lower): no refusal to see");
        } catch (IOException refused) {
            // the expected case for an ordinary user: the server's own attempt is refused the same way
        }

        assertThatThrownBy(() -> RagMcpServer.http(fixture.tools(), McpHttpSettings.loopback("127.0.0.1", 80)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("may not open port 80")
                .hasMessageContaining("1024").hasMessageNotContaining("in use");
    }

    @Test
    void theOperatingSystemsWords_pickTheMessage_asJettyWrapsThem() {
        // Jetty reports a failed bind as IOException("Failed to bind to <address>") around the JDK's BindException,
        // whose text is the operating system's (Linux and macOS below; the CI user may be root, so EACCES is made)
        IOException denied = new IOException("Failed to bind to /127.0.0.1:80", new BindException("Permission denied"));
        IOException inUse = new IOException("Failed to bind to /127.0.0.1:8808",
                new BindException("Address already in use"));
        IOException elsewhere = new IOException("Failed to bind to /192.0.2.1:8808",
                new BindException("Cannot assign requested address"));

        assertThat(RagMcpServer.bindFailure("127.0.0.1", 80, denied)).isEqualTo("cannot serve MCP on 127.0.0.1:80: "
                + "this user may not open port 80 (ports below 1024 need administrator rights); choose a port from "
                + "1024 up, e.g. 8808");
        assertThat(RagMcpServer.bindFailure("127.0.0.1", 8808, inUse)).contains("port 8808 is in use");
        assertThat(RagMcpServer.bindFailure("192.0.2.1", 8808, elsewhere))
                .contains("192.0.2.1 is not an address of this machine");
        assertThat(RagMcpServer.bindFailure("::1", 8808, new IOException("closed")))
                .isEqualTo("cannot serve MCP on [::1]:8808 (closed)");
    }
}
