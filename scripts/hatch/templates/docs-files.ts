// The generated app's page of the product documentation, in English and Chinese, under Operations.
import type { NewAppSpec, NewField } from '../new-app-spec.ts'
import { fieldLimits } from './entity-files.ts'

function englishRule(field: NewField): string {
  const required = field.required ? 'required, ' : ''
  switch (field.kind) {
    case 'text':
      return `${required}one line, at most ${fieldLimits.text} characters`
    case 'longtext':
      return `${required}several lines, at most ${fieldLimits.longtext} characters`
    case 'list':
      return `${required}up to ${fieldLimits.listEntries} entries separated by commas (\`,\`, \`，\` or \`、\`)`
    case 'integer':
      return `${required}a whole number`
    case 'year':
      return `${required}a year from ${fieldLimits.yearMin} to next year`
    case 'url':
      return `${required}an address starting with \`https://\` or \`http://\``
  }
}

function chineseRule(field: NewField): string {
  const required = field.required ? '必填，' : ''
  switch (field.kind) {
    case 'text':
      return `${required}单行，最多 ${fieldLimits.text} 个字符`
    case 'longtext':
      return `${required}多行，最多 ${fieldLimits.longtext} 个字符`
    case 'list':
      return `${required}最多 ${fieldLimits.listEntries} 项，用逗号（\`,\`、\`，\` 或 \`、\`）分隔`
    case 'integer':
      return `${required}整数`
    case 'year':
      return `${required}${fieldLimits.yearMin} 年到明年之间的年份`
    case 'url':
      return `${required}以 \`https://\` 或 \`http://\` 开头的地址`
  }
}

export function docsFiles(spec: NewAppSpec): Record<string, string> {
  const s = spec
  const e = s.english
  const z = s.label.zh
  const columns = s.fields.map((field) => `\`${field.column}\``).join(', ')
  return {
    [`docs/(operations)/${s.app}.mdx`]: `---
title: ${e.many}
description: An organization's ${e.manyInSentence} in the console, with search, sorting, CSV import and export, permissions per role, webhooks and tools for assistants.
---

**${e.many}** is an app, \`src/features/${s.app}\`, listed in \`src/apps.ts\`: its table \`${s.table}\`, its screens under
Console → ${e.many}, its procedures and its words. Its fields are defined once, in
\`src/features/${s.app}/${s.entityFile}-entity.ts\`: the form, the list's columns, the details, CSV, webhooks and the MCP tools
follow that definition. Remove it with \`npm run hatch -- remove ${s.app}\`.

## What a ${e.oneInSentence} has [#fields]

| Field | Rule |
|---|---|
${s.fields.map((field) => `| ${field.label.en} | ${englishRule(field)} |`).join('\n')}

## Who may do what [#permissions]

Owners and admins add, read, change and delete every ${e.oneInSentence} of the organization; members add and read them, and
change or delete only their own. A custom role can grant any of these (\`${s.entity}\`: create, read, update, delete,
update-own, delete-own) under Console → Organization → Roles.

## Deleting [#delete]

A deleted ${e.oneInSentence} leaves the list at once, and **Undo** in the message brings it back.

## CSV [#csv]

**Export CSV** writes what the search shows, in the list's order, with the columns ${columns}. **Import CSV** reads the
same columns (up to 1,000 rows per file): it checks every row first, shows the problems by line and column, and writes
the file only when it has none, all of it.

## Webhooks and tools [#integrations]

Endpoints can subscribe to \`${s.entityFile}.created\`, \`${s.entityFile}.updated\` and \`${s.entityFile}.deleted\`. The MCP server
offers \`list_${s.table}\`, \`get_${s.entitySnake}\` and \`create_${s.entitySnake}\`, with the permissions of the API key's owner.
`,
    [`docs/(operations)/${s.app}.zh.mdx`]: `---
title: ${z}
description: 在控制台管理组织的${z}：搜索、排序、CSV 导入导出、按角色授权、Webhook 以及供助手使用的工具。
---

**${z}**是一个应用，位于 \`src/features/${s.app}\`，列在 \`src/apps.ts\` 中：包括数据表 \`${s.table}\`、控制台 → ${z}下的页面、
接口和文案。它的字段只在 \`src/features/${s.app}/${s.entityFile}-entity.ts\` 中定义一次：表单、列表的列、详情、CSV、Webhook 和
MCP 工具都由这份定义生成。用 \`npm run hatch -- remove ${s.app}\` 可以移除它。

## 字段 [#fields]

| 字段 | 规则 |
|---|---|
${s.fields.map((field) => `| ${field.label.zh} | ${chineseRule(field)} |`).join('\n')}

## 权限 [#permissions]

所有者和管理员可以添加、查看、修改和删除组织的所有${z}；成员可以添加和查看，但只能修改或删除自己添加的。自定义角色可以在
控制台 → 组织 → 角色中授予其中任意权限（\`${s.entity}\`：create、read、update、delete、update-own、delete-own）。

## 删除 [#delete]

删除的${z}会立即从列表中消失，点击提示中的**撤销**即可恢复。

## CSV [#csv]

**导出 CSV** 按列表的顺序写出当前搜索结果，列为 ${columns}。**导入 CSV** 读取相同的列（每个文件最多 1,000 行）：先检查每一行，
按行和列列出问题，只有没有问题的文件才会导入，并且整个文件一起导入。

## Webhook 和工具 [#integrations]

端点可以订阅 \`${s.entityFile}.created\`、\`${s.entityFile}.updated\` 和 \`${s.entityFile}.deleted\`。MCP 服务器提供
\`list_${s.table}\`、\`get_${s.entitySnake}\` 和 \`create_${s.entitySnake}\`，使用 API 密钥所有者的权限。
`,
  }
}
