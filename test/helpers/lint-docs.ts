import { escapeXml } from '../../src/formats/opc/index.js';
import { buildDocx, para, run, type DocxSpec } from './docx-builder.js';
import { patchEntry } from './zip-patch.js';

/**
 * Minimal documents, one (or a few) per lint finding: each holds exactly the problem named and
 * nothing else lint would report.
 */

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument';
const NS = {
  mc: 'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"',
  v: 'xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"',
  wps: 'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"',
};

export const doc = (body: string, more: Partial<DocxSpec> = {}): Buffer =>
  buildDocx({ body, ...more });

/** A run with run properties (inner XML of w:rPr). */
export const styledRun = (rPr: string, text: string): string =>
  `<w:r><w:rPr>${rPr}</w:rPr><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;

export const cell = (...paragraphs: string[]): string =>
  `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>${paragraphs.map((p) => (p.startsWith('<w:p') ? p : para(p))).join('')}</w:tc>`;
export const row = (...cells: string[]): string => `<w:tr>${cells.join('')}</w:tr>`;
export const table = (...rows: string[]): string =>
  `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>${rows.join('')}</w:tbl>`;

/** A simple field (`w:fldSimple`) with the text Word last showed for it. */
export const simpleField = (instruction: string, shown: string): string =>
  `<w:fldSimple w:instr="${escapeXml(instruction)}">${run(shown)}</w:fldSimple>`;

/** A complex field: begin, instruction, separate, result, end, each in its own run. */
export const complexField = (instruction: string, shown: string): string =>
  '<w:r><w:fldChar w:fldCharType="begin"/></w:r>' +
  `<w:r><w:instrText xml:space="preserve">${escapeXml(instruction)}</w:instrText></w:r>` +
  '<w:r><w:fldChar w:fldCharType="separate"/></w:r>' +
  run(shown) +
  '<w:r><w:fldChar w:fldCharType="end"/></w:r>';

const REVISION = 'w:author="Anne Author" w:date="2026-01-05T10:00:00Z"';

/** A paragraph with an insertion and a deletion tracked. */
export const trackedParagraph = (): string =>
  `<w:p>${run('The rent is ')}<w:ins w:id="1" ${REVISION}>${run('{rent} kr.')}</w:ins>` +
  `<w:del w:id="2" ${REVISION}><w:r><w:delText>5.000 kr.</w:delText></w:r></w:del></w:p>`;

/** A paragraph whose run's bold was a tracked formatting change. */
export const formatChangeParagraph = (): string =>
  `<w:p><w:r><w:rPr><w:b/><w:rPrChange w:id="3" ${REVISION}><w:rPr/></w:rPrChange></w:rPr><w:t>Important terms</w:t></w:r></w:p>`;

/** A document with one comment by Anne Author, anchored in its second paragraph. */
export function commentedDoc(): Buffer {
  const comments =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:comments xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` +
    `<w:comment w:id="0" w:author="Anne Author" w:date="2026-01-05T10:00:00Z" w:initials="AA"><w:p>${run('Check the deposit with legal')}</w:p></w:comment></w:comments>`;
  return doc(
    para('Lease') +
      `<w:p><w:commentRangeStart w:id="0"/>${run('The deposit is {deposit}.')}<w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r></w:p>`,
    {
      extra: [
        {
          name: 'word/comments.xml',
          data: comments,
          contentType: `${CT}.wordprocessingml.comments+xml`,
        },
      ],
      rels: [`<Relationship Id="rIdComments" Type="${REL}/comments" Target="comments.xml"/>`],
    },
  );
}

/** A styles part whose paragraph style `Fine` sets 5 pt text. */
export function tinyStyleDoc(): Buffer {
  const styles =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` +
    '<w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults>' +
    '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>' +
    '<w:style w:type="paragraph" w:styleId="Fine"><w:name w:val="Fine print"/><w:basedOn w:val="Normal"/><w:rPr><w:sz w:val="10"/></w:rPr></w:style>' +
    '</w:styles>';
  return doc(
    para('Terms') +
      `<w:p><w:pPr><w:pStyle w:val="Fine"/></w:pPr>${run('No refunds after signing.')}</w:p>`,
    {
      extra: [
        { name: 'word/styles.xml', data: styles, contentType: `${CT}.wordprocessingml.styles+xml` },
      ],
      rels: [`<Relationship Id="rIdStyles" Type="${REL}/styles" Target="styles.xml"/>`],
    },
  );
}

/** A settings part holding `inner`, with relationships of its own. */
export function settingsDoc(inner: string, settingsRels: string[] = []): Buffer {
  const settings = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="${REL}">${inner}</w:settings>`;
  const rels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${settingsRels.join('')}</Relationships>`;
  return doc(para('Dear {name},'), {
    extra: [
      {
        name: 'word/settings.xml',
        data: settings,
        contentType: `${CT}.wordprocessingml.settings+xml`,
      },
      ...(settingsRels.length ? [{ name: 'word/_rels/settings.xml.rels', data: rels }] : []),
    ],
    rels: [`<Relationship Id="rIdSettings" Type="${REL}/settings" Target="settings.xml"/>`],
  });
}

export function attachedTemplateDoc(): Buffer {
  return settingsDoc('<w:attachedTemplate r:id="rIdT"/>', [
    `<Relationship Id="rIdT" Type="${REL}/attachedTemplate" Target="file:///C:/Users/anne/Templates/Contracts.dotm" TargetMode="External"/>`,
  ]);
}

export function mailMergeSettingsDoc(): Buffer {
  return settingsDoc(
    '<w:mailMerge><w:mainDocumentType w:val="formLetters"/><w:dataType w:val="textFile"/><w:query w:val="SELECT * FROM clients.csv"/></w:mailMerge>',
  );
}

/** A chart whose title holds `title`: its part, its relationship and a paragraph drawing it. */
export function chartParts(
  title: string,
): Pick<DocxSpec, 'extra' | 'rels'> & { paragraph: string } {
  const chart =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">` +
    `<c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>${escapeXml(title)}</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title>` +
    '<c:plotArea><c:layout/><c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:varyColors val="0"/>' +
    '<c:ser><c:idx val="0"/><c:order val="0"/><c:cat><c:strLit><c:ptCount val="2"/><c:pt idx="0"><c:v>2025</c:v></c:pt><c:pt idx="1"><c:v>2026</c:v></c:pt></c:strLit></c:cat>' +
    '<c:val><c:numLit><c:formatCode>General</c:formatCode><c:ptCount val="2"/><c:pt idx="0"><c:v>3</c:v></c:pt><c:pt idx="1"><c:v>5</c:v></c:pt></c:numLit></c:val></c:ser>' +
    '<c:axId val="1"/><c:axId val="2"/></c:barChart>' +
    '<c:catAx><c:axId val="1"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="2"/></c:catAx>' +
    '<c:valAx><c:axId val="2"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="l"/><c:crossAx val="1"/></c:valAx></c:plotArea>' +
    '<c:plotVisOnly val="1"/></c:chart></c:chartSpace>';
  return {
    paragraph: `<w:p><w:r><w:drawing><wp:inline ${NS.wps}><wp:extent cx="4000000" cy="2000000"/><wp:docPr id="1" name="Chart 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdChart"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`,
    extra: [
      { name: 'word/charts/chart1.xml', data: chart, contentType: `${CT}.drawingml.chart+xml` },
    ],
    rels: [`<Relationship Id="rIdChart" Type="${REL}/chart" Target="charts/chart1.xml"/>`],
  };
}

/** A chart whose title holds `title`, drawn in the body's second paragraph. */
export function chartDoc(title: string): Buffer {
  const { paragraph, ...parts } = chartParts(title);
  return doc(para('Figures') + paragraph, parts);
}

/** A SmartArt graphic's data part with one node holding `text`. */
export function smartArtDoc(text: string): Buffer {
  const data =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">` +
    `<dgm:ptLst><dgm:pt modelId="{1}" type="doc"><dgm:t><a:bodyPr/><a:p><a:endParaRPr/></a:p></dgm:t></dgm:pt>` +
    `<dgm:pt modelId="{2}"><dgm:t><a:bodyPr/><a:p><a:r><a:t>${escapeXml(text)}</a:t></a:r></a:p></dgm:t></dgm:pt></dgm:ptLst></dgm:dataModel>`;
  return doc(para('Process') + para('Steps:'), {
    extra: [
      { name: 'word/diagrams/data1.xml', data, contentType: `${CT}.drawingml.diagramData+xml` },
    ],
    rels: [`<Relationship Id="rIdDm" Type="${REL}/diagramData" Target="diagrams/data1.xml"/>`],
  });
}

/** A text box as Word writes it: a wps shape, and a VML copy for older readers. */
export const textBoxParagraph = (text: string): string =>
  `<w:p><w:r><mc:AlternateContent ${NS.mc}><mc:Choice Requires="wps"><w:drawing><wp:anchor ${NS.wps} distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="3000000" cy="600000"/><wp:effectExtent l="0" t="0" r="0" b="0"/><wp:wrapTopAndBottom/><wp:docPr id="2" name="Text Box 1"/><wp:cNvGraphicFramePr/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:cNvSpPr txBox="1"/><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="3000000" cy="600000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></wps:spPr><wps:txbx><w:txbxContent>${para(text)}</w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>` +
  `<mc:Fallback><w:pict><v:shape ${NS.v} id="tb1" style="position:absolute;width:236pt;height:47pt"><v:textbox><w:txbxContent>${para(text)}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`;

/** VML WordArt: its text is the `string` attribute of v:textpath. */
export const wordArtParagraph = (text: string): string =>
  `<w:p><w:r><w:pict><v:shape ${NS.v} id="wa1" type="#_x0000_t136" style="position:absolute;width:250pt;height:50pt" fillcolor="black"><v:textpath style="font-family:&quot;Arial&quot;;font-size:24pt" string="${escapeXml(text)}"/></v:shape></w:pict></w:r></w:p>`;

/** A picture linked to a file outside the document (Insert > Pictures > Link to File). */
export function linkedImageParts(target: string): Pick<DocxSpec, 'rels'> & { paragraph: string } {
  return {
    paragraph: `<w:p><w:r><w:pict><v:shape ${NS.v} id="img1" style="width:100pt;height:50pt"><v:imagedata r:id="rIdImg" o:title="logo"/></v:shape></w:pict></w:r></w:p>`,
    rels: [
      `<Relationship Id="rIdImg" Type="${REL}/image" Target="${escapeXml(target)}" TargetMode="External"/>`,
      `<Relationship Id="rIdWeb" Type="${REL}/hyperlink" Target="https://example.com/terms" TargetMode="External"/>`,
    ],
  };
}

export function linkedImageDoc(target: string): Buffer {
  const { paragraph, rels } = linkedImageParts(target);
  return doc(para('Logo:') + paragraph, { rels });
}

/** A subdocument linked from outside (a master document), in the second paragraph. */
export function subDocumentDoc(target: string): Buffer {
  return doc(para('Appendix') + '<w:p><w:subDoc r:id="rIdSub"/></w:p>', {
    rels: [
      `<Relationship Id="rIdSub" Type="${REL}/subDocument" Target="${escapeXml(target)}" TargetMode="External"/>`,
    ],
  });
}

/** A macro-enabled main part (.docm), which sniffing refuses. */
export const docmDoc = (): Buffer =>
  doc(para('Hello'), { mainContentType: 'application/vnd.ms-word.document.macroEnabled.main+xml' });

/** A .docx saved from a .docm: the VBA data part is left, the project is gone. */
export const macroTraceDoc = (): Buffer =>
  doc(para('Hello {name}'), {
    extra: [
      {
        name: 'word/vbaData.xml',
        data: '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<wne:vbaSuppData xmlns:wne="http://schemas.microsoft.com/office/word/2006/wordml"/>',
        contentType: 'application/vnd.ms-word.vbaData+xml',
      },
    ],
  });

/** Hostile XML: the body declares a DOCTYPE (entities, billion laughs). */
export const doctypeDoc = (): Buffer =>
  doc(para('Hello'), {
    mutate: (entries) =>
      entries.map((e) =>
        e.name === 'word/document.xml'
          ? {
              name: e.name,
              data: Buffer.from(
                e.data
                  .toString('utf8')
                  .replace('?>', '?><!DOCTYPE w:document [<!ENTITY a "aaaa">]>'),
              ),
            }
          : e,
      ),
  });

/** A zip whose body claims to inflate to 4 GiB: refused before anything is inflated. */
export const zipBombDoc = (): Buffer =>
  patchEntry(doc(para('Hello')), 'word/document.xml', { uncompressedSize: 0xffff_fff0 });

/** Runs in a font no machine has. */
export const unknownFontRun = (font: string, text: string): string =>
  styledRun(`<w:rFonts w:ascii="${font}" w:hAnsi="${font}"/>`, text);

/**
 * A font table as Word saves one with "Embed fonts in the file": each family embedded regular
 * (and bold when asked), each font in a part of its own; `declared` families only named.
 */
export function fontTableParts(
  embedded: { family: string; bold?: boolean }[],
  declared: string[] = [],
): Pick<DocxSpec, 'extra' | 'rels'> {
  const fonts: string[] = [];
  const fontRels: string[] = [];
  const parts: { name: string; data: Buffer; contentType: string }[] = [];
  const embed = (kind: string) => {
    const n = parts.length + 1;
    fontRels.push(`<Relationship Id="rIdF${n}" Type="${REL}/font" Target="fonts/font${n}.odttf"/>`);
    parts.push({
      name: `word/fonts/font${n}.odttf`,
      data: Buffer.alloc(1024, n),
      contentType: `${CT}.obfuscatedFont`,
    });
    return `<w:embed${kind} r:id="rIdF${n}" w:fontKey="{75E47363-20F1-45D4-9A84-815E26C8EA${n.toString().padStart(2, '0')}}"/>`;
  };
  for (const { family, bold } of embedded)
    fonts.push(
      `<w:font w:name="${escapeXml(family)}">${embed('Regular')}${bold ? embed('Bold') : ''}</w:font>`,
    );
  for (const family of declared) fonts.push(`<w:font w:name="${escapeXml(family)}"/>`);
  const table = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:fonts xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="${REL}">${fonts.join('')}</w:fonts>`;
  return {
    extra: [
      {
        name: 'word/fontTable.xml',
        data: table,
        contentType: `${CT}.wordprocessingml.fontTable+xml`,
      },
      {
        name: 'word/_rels/fontTable.xml.rels',
        data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${fontRels.join('')}</Relationships>`,
      },
      ...parts,
    ],
    rels: [`<Relationship Id="rIdFonts" Type="${REL}/fontTable" Target="fontTable.xml"/>`],
  };
}

/** A document that inserts `inner` whole (`w:altChunk`) as its second block, in word/afchunk.docx. */
export const altChunkDoc = (inner: Buffer): Buffer =>
  doc(`${para('Terms follow.')}<w:altChunk r:id="rIdAlt"/>`, {
    rels: [`<Relationship Id="rIdAlt" Type="${REL}/aFChunk" Target="afchunk.docx"/>`],
    extra: [
      { name: 'word/afchunk.docx', data: inner, contentType: `${CT}.wordprocessingml.document` },
    ],
  });
