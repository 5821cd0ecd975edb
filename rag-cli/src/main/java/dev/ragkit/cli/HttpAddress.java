package dev.ragkit.cli;

/**
 * A {@code --http host:port} value ({@code ragkit mcp}, {@code ragkit serve}): an IPv4 address or name, or an IPv6
 * address in brackets, then the port (0: any free one).
 *
 * @param host the host, without brackets
 * @param port the port
 */
record HttpAddress(String host, int port) {

    /**
     * @param value   the option's value
     * @param example an example to show when it is malformed, e.g. {@code 127.0.0.1:8808}
     * @return the address
     * @throws UsageException when it is not host:port
     */
    static HttpAddress parse(String value, String example) {
        int colon = value.lastIndexOf(':');
        String host = colon < 1 ? "" : value.substring(0, colon).strip();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(value.substring(colon + 1).strip());
        } catch (RuntimeException e) {
            port = -1;
        }
        if (host.isEmpty() || port < 0 || port > 65_535) {
            throw new UsageException("--http takes host:port, e.g. " + example + ", got '" + Terminal.line(value)
                    + "'");
        }
        return new HttpAddress(host, port);
    }
}
