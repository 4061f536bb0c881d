#!/usr/bin/env python3
"""Writes apps/web/public/termos-de-uso.pdf: the terms of use linked from the sign-up form.

A plain, dependency-free PDF 1.4 (Helvetica, WinAnsi encoding, A4). Edit TERMS and run again:
    python3 scripts/make-terms-pdf.py
"""
import pathlib

OUT = pathlib.Path(__file__).resolve().parent.parent / 'apps/web/public/termos-de-uso.pdf'

TITLE = 'Termos de Uso da Plataforma Ecoa'
UPDATED = 'Última atualização: 22 de novembro de 2026'

TERMS = [
    ('1. Aceitação', [
        'Ao criar uma conta ou utilizar a plataforma Ecoa ("Plataforma"), a empresa contratante ("Cliente"), por meio '
        'de seu representante, declara ter lido, compreendido e aceitado integralmente estes Termos de Uso. Quem não '
        'concordar com qualquer condição não deve utilizar a Plataforma.',
    ]),
    ('2. Objeto', [
        'A Plataforma oferece comunicação multicanal para empresas: envio de SMS, SMS Flash, torpedo de voz, URA, '
        'WhatsApp e RCS para listas de contatos, além de gestão de listas, áudios, links rotativos e enriquecimento '
        'de dados a partir de CNPJ. Os serviços são pagos com saldo pré-pago em reais (BRL).',
    ]),
    ('3. Cadastro e conta', [
        'O Cliente deve informar dados verdadeiros, completos e atualizados, incluindo razão social, CNPJ válido, '
        'e-mail e celular do responsável. O acesso é feito por código enviado ao e-mail cadastrado; o Cliente é '
        'responsável por manter a segurança do seu e-mail e por todas as atividades realizadas em sua conta.',
        'A Ecoa pode solicitar documentos para confirmar a identidade do Cliente e recusar ou desativar cadastros '
        'com informações inconsistentes.',
    ]),
    ('4. Uso permitido e conteúdo das mensagens', [
        'O Cliente é o único responsável pelo conteúdo das mensagens e pela origem das listas de contatos. É proibido '
        'enviar mensagens não solicitadas (spam), conteúdo ilegal, enganoso, ofensivo, discriminatório, que viole '
        'direitos de terceiros ou que promova fraudes, golpes ou phishing.',
        'O Cliente deve respeitar os pedidos de descadastramento (opt-out), os horários adequados de envio, as '
        'regras das operadoras e dos provedores de cada canal, o Código de Defesa do Consumidor e a legislação '
        'aplicável.',
    ]),
    ('5. Créditos, pagamentos e saldo', [
        'Os serviços são contratados mediante compra antecipada de saldo, com valor mínimo por compra informado na '
        'Plataforma. O saldo pode ser convertido em créditos de cada canal conforme a tabela de preços do Cliente. '
        'Créditos reservados para campanhas não enviadas são devolvidos ao saldo.',
        'Pagamentos por cartão são processados por parceiro de pagamento; pagamentos por PIX são confirmados pela '
        'equipe Ecoa. Valores pagos não são reembolsáveis, salvo nos casos previstos em lei.',
    ]),
    ('6. Proteção de dados pessoais', [
        'No tratamento dos dados pessoais dos contatos enviados à Plataforma, o Cliente atua como controlador e a '
        'Ecoa como operadora, nos termos da Lei Geral de Proteção de Dados Pessoais (Lei nº 13.709/2018 - LGPD). '
        'O Cliente garante possuir base legal para o tratamento e o envio de mensagens a cada contato.',
        'A Ecoa adota medidas técnicas e administrativas para proteger os dados, utiliza-os apenas para prestar os '
        'serviços contratados e não os compartilha com terceiros, exceto com os provedores necessários à entrega '
        'das mensagens ou por determinação legal.',
    ]),
    ('7. Disponibilidade e responsabilidades', [
        'A Ecoa empenha-se em manter a Plataforma disponível e em entregar as mensagens com agilidade, mas a entrega '
        'depende de operadoras e provedores terceiros e não pode ser garantida em todos os casos. A Ecoa não se '
        'responsabiliza por danos decorrentes do conteúdo enviado pelo Cliente ou do uso indevido da Plataforma.',
    ]),
    ('8. Suspensão e encerramento', [
        'A Ecoa pode suspender ou desativar contas que violem estes Termos, que apresentem indícios de fraude ou que '
        'recebam denúncias recorrentes de destinatários, operadoras ou autoridades. O Cliente pode encerrar sua conta '
        'a qualquer momento entrando em contato com o suporte.',
    ]),
    ('9. Alterações destes Termos', [
        'Estes Termos podem ser atualizados para refletir mudanças nos serviços ou na legislação. A versão vigente '
        'fica sempre disponível na Plataforma, e o uso continuado após a atualização representa concordância com a '
        'nova versão.',
    ]),
    ('10. Contato e foro', [
        'Dúvidas sobre estes Termos podem ser enviadas ao suporte pelos canais informados na Plataforma. Fica eleito '
        'o foro da comarca de São Paulo/SP para dirimir quaisquer controvérsias, com renúncia a qualquer outro, por '
        'mais privilegiado que seja.',
    ]),
]

PAGE_W, PAGE_H = 595.28, 841.89  # A4 in points
MARGIN = 56
TEXT_W = PAGE_W - 2 * MARGIN


def char_width(c: str) -> float:
    """Rough Helvetica advance widths, in em, good enough to wrap lines."""
    if c in 'il.,;:\'|!jI ':
        return 0.278 if c != ' ' else 0.278
    if c in 'ftr()-/':
        return 0.333
    if c in 'mwMW':
        return 0.86
    if c.isupper():
        return 0.70
    return 0.556


def wrap(text: str, size: float) -> list[str]:
    lines, line, width = [], '', 0.0
    for word in text.split(' '):
        w = sum(char_width(c) for c in word) * size
        space = char_width(' ') * size if line else 0
        if line and width + space + w > TEXT_W:
            lines.append(line)
            line, width = word, w
        else:
            line = f'{line} {word}' if line else word
            width += space + w
    if line:
        lines.append(line)
    return lines


def pdf_string(text: str) -> bytes:
    raw = text.encode('cp1252')
    return b'(' + raw.replace(b'\\', b'\\\\').replace(b'(', b'\\(').replace(b')', b'\\)') + b')'


def layout() -> list[list[tuple[str, float, float, float]]]:
    """Pages of (font, size, y, text) lines; font is F1 (regular) or F2 (bold)."""
    pages: list[list[tuple[str, float, float, float]]] = []
    page: list = []
    y = PAGE_H - MARGIN

    def emit(font: str, size: float, text: str, lead: float):
        nonlocal page, y
        if y - lead < MARGIN:
            pages.append(page)
            page, y = [], PAGE_H - MARGIN
        y -= lead
        page.append((font, size, y, text))

    emit('F2', 18, TITLE, 18)
    emit('F1', 9, UPDATED, 18)
    y -= 6
    for heading, paragraphs in TERMS:
        y -= 10
        emit('F2', 11.5, heading, 16)
        for paragraph in paragraphs:
            for line in wrap(paragraph, 10):
                emit('F1', 10, line, 14)
            y -= 5
    pages.append(page)
    return pages


def build() -> bytes:
    pages = layout()
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b'')  # filled below
    pages_id = add(b'')
    font_regular = add(b'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
    font_bold = add(b'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>')
    info = add(
        b'<< /Title ' + pdf_string(TITLE) + b' /Author (Ecoa) /Producer (scripts/make-terms-pdf.py) >>'
    )
    page_ids = []
    for number, lines in enumerate(pages, start=1):
        ops = [b'0.1 0.1 0.12 rg']
        for font, size, y, text in lines:
            ops.append(f'BT /{font} {size} Tf {MARGIN} {y:.2f} Td '.encode() + pdf_string(text) + b' Tj ET')
        footer = f'Ecoa - Termos de Uso - página {number} de {len(pages)}'
        ops.append(b'0.45 0.45 0.5 rg')
        ops.append(f'BT /F1 8 Tf {MARGIN} {MARGIN / 2:.2f} Td '.encode() + pdf_string(footer) + b' Tj ET')
        stream = b'\n'.join(ops)
        content = add(b'<< /Length ' + str(len(stream)).encode() + b' >>\nstream\n' + stream + b'\nendstream')
        page_ids.append(
            add(
                f'<< /Type /Page /Parent {pages_id} 0 R /MediaBox [0 0 {PAGE_W} {PAGE_H}] '
                f'/Resources << /Font << /F1 {font_regular} 0 R /F2 {font_bold} 0 R >> >> '
                f'/Contents {content} 0 R >>'.encode()
            )
        )
    objects[catalog - 1] = f'<< /Type /Catalog /Pages {pages_id} 0 R /Lang (pt-BR) >>'.encode()
    kids = ' '.join(f'{p} 0 R' for p in page_ids)
    objects[pages_id - 1] = f'<< /Type /Pages /Kids [{kids}] /Count {len(page_ids)} >>'.encode()

    out = bytearray(b'%PDF-1.4\n%\xe2\xe3\xcf\xd3\n')
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f'{i} 0 obj\n'.encode() + body + b'\nendobj\n'
    xref = len(out)
    out += f'xref\n0 {len(objects) + 1}\n0000000000 65535 f \n'.encode()
    for off in offsets:
        out += f'{off:010d} 00000 n \n'.encode()
    out += f'trailer\n<< /Size {len(objects) + 1} /Root {catalog} 0 R /Info {info} 0 R >>\nstartxref\n{xref}\n%%EOF\n'.encode()
    return bytes(out)


if __name__ == '__main__':
    OUT.write_bytes(build())
    print(f'wrote {OUT} ({OUT.stat().st_size} bytes)')
