// Typings for html-encoding-sniffer (the package ships none): the WHATWG encoding sniffing algorithm.
declare module 'html-encoding-sniffer' {
  /** The encoding's canonical name (e.g. "UTF-8", "windows-1252", "Shift_JIS"): BOM, then transport label, then <meta> prescan, then the default. */
  export default function htmlEncodingSniffer(
    bytes: Uint8Array,
    options?: { xml?: boolean; transportLayerEncodingLabel?: string; defaultEncoding?: string },
  ): string;
}
